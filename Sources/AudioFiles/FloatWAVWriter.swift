import Glibc

/// Streams 32-bit float WAV on a descriptor: the header first (`WAVHeader`, sizes unknown), the
/// samples through a 64 kB buffer, then — when the descriptor is a file written from its start —
/// the header again with the real length, RF64 past 4 GiB. On a pipe the first header stays
/// (sizes "to the end"). The
/// bytes depend on the samples alone (no PEAK chunk, no timestamp). Control or offline thread.
public final class FloatWAVWriter: AudioFileSink {
    public let path: String
    public let channelCount: Int
    private let descriptor: Int32
    private let sampleRate: Int
    private var buffer: [UInt8] = []
    private var frames: UInt64 = 0
    private var open = true
    /// Whether the header can be rewritten in place: a file written from its start, not appended to.
    private let rewritable: Bool
    static let bufferBytes = 1 << 16

    /// Writes on `descriptor`, which stays open (the caller closes it). `path` names it in messages.
    public init(descriptor: Int32, path: String, sampleRate: Int, channels: Int) throws(AudioFileError) {
        guard channels == 1 || channels == 2 else { throw AudioFileError(path: path, reason: "writes 1 or 2 channels, not \(channels)") }
        guard sampleRate > 0 else { throw AudioFileError(path: path, reason: "invalid sample rate \(sampleRate) Hz") }
        var status = stat()
        rewritable = fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
            && lseek(descriptor, 0, SEEK_CUR) == 0 && fcntl(descriptor, F_GETFL) & O_APPEND == 0
        self.descriptor = descriptor
        self.path = path
        self.sampleRate = sampleRate
        channelCount = channels
        buffer.reserveCapacity(Self.bufferBytes + 4 * 2 * 4096)
        buffer += WAVHeader.bytes(channels: channels, sampleRate: sampleRate, frames: nil)
    }

    public func write(left: UnsafePointer<Float>, right: UnsafePointer<Float>?, frames count: Int) throws(AudioFileError) {
        guard open else { throw AudioFileError(path: path, reason: "write after close") }
        let stereo = channelCount == 2, second = right ?? left
        let bytesPerFrame = stereo ? 8 : 4
        var done = 0
        // A run of frames at a time, stored in place: appending byte by byte cost ~200
        // instructions a sample (a tenth of a SoundFont render).
        while done < count {
            let run = min(count - done, max(1, (Self.bufferBytes - buffer.count) / bytesPerFrame))
            let at = buffer.count, from = done
            buffer.append(contentsOf: repeatElement(0, count: run * bytesPerFrame))
            buffer.withUnsafeMutableBytes { raw in
                for i in 0..<run {
                    let offset = at + i * bytesPerFrame
                    raw.storeBytes(of: left[from + i].bitPattern.littleEndian, toByteOffset: offset, as: UInt32.self)
                    if stereo { raw.storeBytes(of: second[from + i].bitPattern.littleEndian, toByteOffset: offset + 4, as: UInt32.self) }
                }
            }
            done += run
            if buffer.count >= Self.bufferBytes { try flush() }
        }
        frames += UInt64(max(0, count))
    }

    private func flush() throws(AudioFileError) {
        var done = 0
        while done < buffer.count {
            let n = buffer.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw AudioFileError(path: path, reason: "write failed: \(String(cString: strerror(errno)))") }
            done += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    public func finish() throws(AudioFileError) {
        guard open else { return }
        open = false
        try flush()
        guard rewritable else { return }  // a pipe: as it was sent
        let header = WAVHeader.bytes(channels: channelCount, sampleRate: sampleRate, frames: frames)
        let written = header.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        guard written == header.count else {
            throw AudioFileError(path: path, reason: "cannot write the header: \(String(cString: strerror(errno)))")
        }
    }

    public func close() { open = false }
}
