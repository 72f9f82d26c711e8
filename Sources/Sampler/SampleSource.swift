/// Where a deferred waveform's frames come from (`SamplerWaveform(source:…)`): a SoundFont's
/// sample in its file, for instance. Read on the loading side when a region of the waveform is
/// prepared (`RegionFrames(reading:)`), never on the render thread.
public protocol SampleSource: Sendable {
    /// Writes frames `frames` (within the waveform) of `channel` to `destination` in the
    /// waveform's stored form: 16-bit points for a waveform of 2 bytes a frame, else Float.
    /// Throws one line naming the file and the sample when they cannot be read.
    func read(channel: Int, frames: Range<Int>, into destination: UnsafeMutableRawPointer) throws(SampleReadError)
}

/// Why a deferred waveform's frames could not be read: one line naming the file and the sample.
public struct SampleReadError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
