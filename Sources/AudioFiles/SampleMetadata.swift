/// A loop region in frames. `endFrame` is EXCLUSIVE: one past the last looped frame, so
/// `endFrame - startFrame` is the loop length and playback jumps from `endFrame - 1` to `startFrame`.
import MemberwiseInit

@PublicInit
public struct SampleLoop: Sendable, Equatable, Hashable {
    public var startFrame: Int
    public var endFrame: Int

    /// Number of frames in one pass of the loop.
    public var lengthFrames: Int { endFrame - startFrame }
}

/// What a sample file says about how to play it (WAV `smpl`, AIFF `INST`+`MARK`, CAF `inst`+`regn`/`mark`).
/// Every field is optional: files without the chunks give the defaults.
@PublicInit
public struct SampleMetadata: Sendable, Equatable {
    /// MIDI note at which the recording plays at its original pitch.
    public var rootKey: Int? = nil
    /// Tuning correction to apply at playback, in cents (positive = play higher). AIFF `INST` detune
    /// as stored; WAV `smpl` pitch fraction f gives −f (the recording is f cents sharp of `rootKey`);
    /// a CAF fractional base note b gives (rootKey − b)·100 with rootKey = b rounded. nil when zero.
    public var fineTuneCents: Double? = nil
    /// Keys the file says it is meant for (AIFF `INST`, CAF `inst`); nil when the format has no such field.
    public var keyRange: ClosedRange<Int>? = nil
    /// Velocities the file says it is meant for (AIFF `INST`, CAF `inst`); nil when absent.
    public var velocityRange: ClosedRange<Int>? = nil
    /// Loops in file order, the sustain loop first (backward and alternating loops are listed too:
    /// direction is not kept, players loop forward). Loops reaching past the audio are dropped.
    /// Frame positions are in the file's own rate
    /// (or the converted rate after `AudioFileReader.read(path:convertingTo:)`).
    public var loops: [SampleLoop] = []

    /// The sustain loop, if the file has one.
    public var sustainLoop: SampleLoop? { loops.first }
}

/// A whole decoded file: planar Float samples (−1…1) plus metadata. Built on the control thread;
/// hand it to the render side whole (e.g. copied into a preallocated voice source).
public struct DecodedAudio: Sendable {
    /// Frames per second.
    public var sampleRate: Double
    /// One array per channel, each `frameCount` long (1 array = mono).
    public var channels: [[Float]]
    public var frameCount: Int
    public var metadata: SampleMetadata
    /// Human-readable source format, e.g. "AIFF PCM 16-bit, 44100 Hz, mono".
    public var formatDescription: String
    /// Untidiness read anyway, one line each naming the path (a data chunk a few bytes short).
    public var warnings: [String] = []

    public init(
        sampleRate: Double, channels: [[Float]], frameCount: Int, metadata: SampleMetadata = SampleMetadata(),
        formatDescription: String
    ) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.frameCount = frameCount
        self.metadata = metadata
        self.formatDescription = formatDescription
    }

    /// Length in seconds.
    public var durationSeconds: Double { Double(frameCount) / sampleRate }
}
