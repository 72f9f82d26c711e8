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

/// Writes a WAV file through libsndfile (integer encodings clip at ±1), with an optional `smpl`
/// chunk. Control or offline thread only: it does file I/O. Not for the real-time render thread.
public final class WAVFileWriter {
    private let writer: SoundFileWriter
    public var path: String { writer.path }
    public var channelCount: Int { writer.channelCount }

    /// Creates (truncates) `path`. `channels` is 1 or 2; `rootKey` and `loops` go into a `smpl` chunk.
    public init(
        path: String, sampleRate: Int, channels: Int, encoding: WAVEncoding, rootKey: Int? = nil,
        loops: [SampleLoop] = []
    ) throws(AudioFileError) {
        writer = try SoundFileWriter(
            path: path, sampleRate: sampleRate, channels: channels, format: Int32(SF_FORMAT_WAV) | encoding.sndFileSubtype
        ) { (info: inout SF_INFO) in sf_open(path, Int32(SFM_WRITE), &info) }
        do {
            try SndFileInstrument.write(rootKey: rootKey, loops: loops, to: writer.file!, path: path)
        } catch {
            close()
            throw error
        }
    }

    /// Appends `frames` frames. `right` is ignored for mono; for stereo a nil `right` repeats `left`.
    public func write(left: UnsafePointer<Float>, right: UnsafePointer<Float>?, frames: Int) throws(AudioFileError) {
        try writer.write(left: left, right: right, frames: frames)
    }

    /// Finishes the header and closes the file. Safe to call twice.
    public func close() { writer.close() }

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
