import CSndFile

#if canImport(Glibc)
    import Glibc
#endif

/// Decodes an audio stream held in memory (an SF3 sample's Ogg Vorbis stream, for instance) with
/// libsndfile's virtual I/O, so nothing is written to disk or copied first. Control thread or any
/// background thread: each call has its own libsndfile handle.
public enum MemoryAudioDecoder {
    /// The decoded frames of a one-channel stream, as Float in libsndfile's scale (±1 full scale;
    /// lossy codecs may overshoot a little), at most `maxFrames` of them. Decoded in blocks, so
    /// memory follows what really decodes, not what the stream claims. Throws, naming `label`,
    /// when libsndfile cannot open or decode the bytes or the stream is not mono.
    public static func decodeMono(_ bytes: UnsafeRawBufferPointer, maxFrames: Int, label: String) throws(AudioFileError) -> [Float] {
        var cursor = Cursor(bytes: bytes)
        var info = SF_INFO()
        var io = SF_VIRTUAL_IO(
            get_filelen: { Cursor.at($0).pointee.length },
            seek: { offset, whence, user in Cursor.at(user).pointee.seek(offset, whence) },
            read: { destination, count, user in Cursor.at(user).pointee.read(into: destination, count: count) },
            write: { _, _, _ in 0 },
            tell: { Cursor.at($0).pointee.position })
        let decoded: Result<[Float], AudioFileError> = withUnsafeMutablePointer(to: &cursor) { user in
            guard let file = sf_open_virtual(&io, Int32(SFM_READ), &info, user) else {
                return .failure(AudioFileError(path: label, reason: String(cString: sf_strerror(nil))))
            }
            defer { sf_close(file) }
            guard info.channels == 1 else {
                return .failure(AudioFileError(path: label, reason: "\(info.channels) channels, a mono stream was expected"))
            }
            let blockFrames = 1 << 14
            var frames: [Float] = []
            frames.reserveCapacity(min(max(Int(info.frames), 0), maxFrames, 1 << 20))
            var block = [Float](repeating: 0, count: blockFrames)
            while frames.count < maxFrames {
                let wanted = min(blockFrames, maxFrames - frames.count)
                let got = Int(block.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress, sf_count_t(wanted)) })
                if got <= 0 { break }
                frames.append(contentsOf: block[0..<got])
            }
            if sf_error(file) != 0 {
                return .failure(AudioFileError(path: label, reason: "decoding failed: \(String(cString: sf_strerror(file)))"))
            }
            return .success(frames)
        }
        return try decoded.get()
    }

    /// The read position in the bytes, reached by libsndfile's callbacks through `user_data`
    /// (the callbacks are C function pointers and capture nothing).
    private struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        static func at(_ user: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<Cursor> { user!.assumingMemoryBound(to: Cursor.self) }

        var length: sf_count_t { sf_count_t(bytes.count) }
        var position: sf_count_t { sf_count_t(offset) }

        mutating func seek(_ distance: sf_count_t, _ whence: Int32) -> sf_count_t {
            let base: Int
            switch whence {
            case SEEK_CUR: base = offset
            case SEEK_END: base = bytes.count
            default: base = 0
            }
            let target = base + Int(distance)
            guard target >= 0, target <= bytes.count else { return -1 }
            offset = target
            return sf_count_t(offset)
        }

        mutating func read(into destination: UnsafeMutableRawPointer?, count: sf_count_t) -> sf_count_t {
            guard let destination, count > 0 else { return 0 }
            let n = min(Int(count), bytes.count - offset)
            guard n > 0, let base = bytes.baseAddress else { return 0 }
            destination.copyMemory(from: base + offset, byteCount: n)
            offset += n
            return sf_count_t(n)
        }
    }
}
