import CSndFile

/// Streams planar Float audio into any format libsndfile writes (integer encodings clip at ±1).
/// Nothing in the file depends on when it was written (no PEAK chunk with its timestamp), so the
/// same samples give the same bytes. Control or offline thread only: it does file I/O.
public final class SoundFileWriter {
    public let path: String
    public let channelCount: Int
    private(set) var file: OpaquePointer?
    /// Interleaving scratch, grown on demand and reused across `write` calls.
    private var interleaved: [Float] = []
    /// Run after a successful close (the Ogg serial number made fixed).
    private var completion: (() throws(AudioFileError) -> Void)?

    /// Writes `format` on `descriptor`, which stays open (the caller closes it after `finish`).
    /// `path` names the file in messages.
    public convenience init(
        descriptor: Int32, path: String, sampleRate: Int, channels: Int, format: OutputFormat
    ) throws(AudioFileError) {
        try self.init(path: path, sampleRate: sampleRate, channels: channels, format: format.sndFileFormat) {
            (info: inout SF_INFO) in sf_open_fd(descriptor, Int32(SFM_WRITE), &info, 0)
        }
        if format.container == .oggVorbis, let file {
            var quality = OutputFormat.vorbisQuality
            sf_command(file, Int32(SFC_SET_VBR_ENCODING_QUALITY), &quality, Int32(MemoryLayout<Double>.size))
            completion = { () throws(AudioFileError) in try OggSerialNumber.fix(descriptor: descriptor, path: path) }
        }
    }

    /// Opens with `open` (`sf_open` or `sf_open_fd`) for `format`, a libsndfile format word.
    init(
        path: String, sampleRate: Int, channels: Int, format: Int32, open: (inout SF_INFO) -> OpaquePointer?
    ) throws(AudioFileError) {
        guard channels == 1 || channels == 2 else {
            throw AudioFileError(path: path, reason: "writes 1 or 2 channels, not \(channels)")
        }
        guard sampleRate > 0 else { throw AudioFileError(path: path, reason: "invalid sample rate \(sampleRate) Hz") }
        var info = SF_INFO()
        info.samplerate = Int32(clamping: sampleRate)
        info.channels = Int32(channels)
        info.format = format
        guard let handle = open(&info) else {
            throw AudioFileError(path: path, reason: String(cString: sf_strerror(nil)))
        }
        self.path = path
        channelCount = channels
        file = handle
        // Without clipping, libsndfile wraps out-of-range floats around in integer encodings.
        sf_command(handle, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
        sf_command(handle, Int32(SFC_SET_ADD_PEAK_CHUNK), nil, Int32(SF_FALSE))
    }

    deinit { close() }

    /// Appends `frames` frames. `right` is ignored for mono; for stereo a nil `right` repeats `left`.
    public func write(left: UnsafePointer<Float>, right: UnsafePointer<Float>?, frames: Int) throws(AudioFileError) {
        guard let file else { throw AudioFileError(path: path, reason: "write after close") }
        guard frames > 0 else { return }
        let needed = frames * channelCount
        if interleaved.count < needed { interleaved = [Float](repeating: 0, count: needed) }
        let written = interleaved.withUnsafeMutableBufferPointer { buffer -> Int in
            if channelCount == 1 {
                buffer.baseAddress!.update(from: left, count: frames)
            } else {
                let second = right ?? left
                for frame in 0..<frames {
                    buffer[2 * frame] = left[frame]
                    buffer[2 * frame + 1] = second[frame]
                }
            }
            return Int(sf_writef_float(file, buffer.baseAddress, sf_count_t(frames)))
        }
        guard written == frames else {
            throw AudioFileError(path: path, reason: "write failed: \(String(cString: sf_strerror(file)))")
        }
    }

    /// Finishes the file (final header, encoder flush); an error means the file is not whole.
    public func finish() throws(AudioFileError) {
        guard let file else { return }
        self.file = nil
        let status = sf_close(file)
        guard status == 0 else {
            throw AudioFileError(path: path, reason: "cannot finish the file: \(String(cString: sf_error_number(status)))")
        }
        try completion?()
    }

    /// Closes without reporting (after an error, or when the result is not kept). Safe to call twice.
    public func close() {
        if let file { sf_close(file) }
        file = nil
    }
}
