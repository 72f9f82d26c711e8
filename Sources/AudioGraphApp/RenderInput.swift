import AudioFiles

/// What an offline render feeds its mic/line bus, at the engine rate: its first two channels (a
/// mono input on both sides), asked for block after block from frame 0 on. Control thread.
public protocol RenderInput: AnyObject {
    /// Frames it holds.
    var frameCount: Int { get }
    /// Writes frames `start ..< start + frames` of channels 0 and 1 (`start` follows on from the
    /// previous call).
    func read(from start: Int, frames: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>) throws(AudioFileError)
}

/// A decoded file held whole (tests, short inputs).
public final class DecodedInput: RenderInput {
    public let audio: DecodedAudio

    public init(_ audio: DecodedAudio) {
        self.audio = audio
    }

    public var frameCount: Int { audio.frameCount }

    public func read(from start: Int, frames: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>) {
        let l = audio.channels[0], r = audio.channels.count > 1 ? audio.channels[1] : audio.channels[0]
        for i in 0..<frames {
            left[i] = l[start + i]
            right[i] = r[start + i]
        }
    }
}

/// A file read and converted in chunks as the render goes (`render --input`): memory stays a few
/// MB whatever its length (a 512 MB 8-channel 768 kHz file decoded whole took 4.3 GB).
public final class StreamedInput: RenderInput {
    private let stream: AudioFileStream
    private var scratch: UnsafeMutablePointer<Float>
    private var capacity = 0
    private var next = 0

    /// Opens `path` to be read at `sampleRate`.
    public init(path: String, sampleRate: Double) throws(AudioFileError) {
        stream = try AudioFileStream(path: path, convertingTo: sampleRate)
        scratch = .allocate(capacity: 1)
    }

    deinit { scratch.deallocate() }

    public var frameCount: Int { stream.frameCount }
    public var channelCount: Int { stream.channelCount }
    /// Harmless untidiness found at open (`AudioFileStream.warnings`).
    public var warnings: [String] { stream.warnings }

    public func read(from start: Int, frames: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>) throws(AudioFileError) {
        precondition(start == next, "a streamed input is read in order")
        let channels = stream.channelCount
        if frames * channels > capacity {
            scratch.deallocate()
            capacity = frames * channels
            scratch = .allocate(capacity: capacity)
        }
        var done = 0
        while done < frames {
            let got = try stream.read(into: scratch + done * channels, frames: frames - done)
            if got == 0 { break }
            done += got
        }
        let second = channels > 1 ? 1 : 0
        for i in 0..<frames {
            left[i] = i < done ? scratch[i * channels] : 0
            right[i] = i < done ? scratch[i * channels + second] : 0
        }
        next = start + frames
    }
}
