import CSndFile

/// Sample encodings the WAV writer offers.
public enum WAVEncoding: Sendable, Equatable, CaseIterable {
    case float32, pcm16, pcm24

    var sndFileSubtype: Int32 {
        switch self {
        case .float32: Int32(SF_FORMAT_FLOAT)
        case .pcm16: Int32(SF_FORMAT_PCM_16)
        case .pcm24: Int32(SF_FORMAT_PCM_24)
        }
    }
}

/// Streams planar Float audio into a WAV file through libsndfile (integer encodings clip at ±1).
/// Control or offline thread only: it does file I/O. Not for the real-time render thread.
public final class WAVFileWriter {
    public let path: String
    public let channelCount: Int
    private var file: OpaquePointer?
    /// Interleaving scratch, grown on demand and reused across `write` calls.
    private var interleaved: [Float] = []

    /// Creates (truncates) `path`. `channels` is 1 or 2; `rootKey` and `loops` go into a `smpl` chunk.
    public init(
        path: String, sampleRate: Int, channels: Int, encoding: WAVEncoding, rootKey: Int? = nil,
        loops: [SampleLoop] = []
    ) throws(AudioFileError) {
        guard channels == 1 || channels == 2 else {
            throw AudioFileError(path: path, reason: "WAVFileWriter writes 1 or 2 channels, not \(channels)")
        }
        guard sampleRate > 0 else { throw AudioFileError(path: path, reason: "invalid sample rate \(sampleRate) Hz") }
        var info = SF_INFO()
        info.samplerate = Int32(clamping: sampleRate)
        info.channels = Int32(channels)
        info.format = Int32(SF_FORMAT_WAV) | encoding.sndFileSubtype
        guard let handle = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw AudioFileError(path: path, reason: String(cString: sf_strerror(nil)))
        }
        self.path = path
        self.channelCount = channels
        self.file = handle
        // Without clipping, libsndfile wraps out-of-range floats around in integer encodings.
        sf_command(handle, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
        do {
            try SndFileInstrument.write(rootKey: rootKey, loops: loops, to: handle, path: path)
        } catch {
            close()
            throw error
        }
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

    /// Finishes the header and closes the file. Safe to call twice.
    public func close() {
        if let file { sf_close(file) }
        file = nil
    }

    /// Writes a whole file in one call. `channels` holds 1 or 2 equally long arrays.
    public static func write(
        path: String, channels: [[Float]], sampleRate: Int, encoding: WAVEncoding, loops: [SampleLoop] = [],
        rootKey: Int? = nil
    ) throws(AudioFileError) {
        guard let first = channels.first, channels.allSatisfy({ $0.count == first.count }) else {
            throw AudioFileError(path: path, reason: "channels missing or of different lengths")
        }
        let writer = try WAVFileWriter(
            path: path, sampleRate: sampleRate, channels: channels.count, encoding: encoding, rootKey: rootKey,
            loops: loops)
        defer { writer.close() }
        let second = channels.count > 1 ? channels[1] : first
        try first.withUnsafeBufferPointer { (left) throws(AudioFileError) in
            try second.withUnsafeBufferPointer { (right) throws(AudioFileError) in
                guard let leftBase = left.baseAddress else { return }
                try writer.write(left: leftBase, right: right.baseAddress, frames: first.count)
            }
        }
    }
}
