import Sampler
import SoundFont

/// A part of a SoundFont sample as a deferred waveform's source (`SamplerWaveform(source:)`): frames
/// `range` of sample `sample`, read on need from the font's file (`SoundFontSampleData`): 16-bit
/// points as they are (`isPCM16`), 24-bit PCM and Vorbis streams as Float. Loading side.
struct FontSampleSource: SampleSource {
    let data: SoundFontSampleData
    let sample: Int
    /// The frames of the sample the waveform holds (its frame 0 is the range's first).
    let range: Range<Int>
    let isPCM16: Bool

    func read(channel: Int, frames: Range<Int>, into destination: UnsafeMutableRawPointer) throws(SampleReadError) {
        let wanted = range.lowerBound + frames.lowerBound..<range.lowerBound + frames.upperBound
        do {
            if isPCM16 {
                try data.pcm16(sample: sample, frames: wanted, into: destination.assumingMemoryBound(to: Int16.self))
            } else {
                try data.floats(sample: sample, frames: wanted, into: destination.assumingMemoryBound(to: Float.self))
            }
        } catch {
            throw SampleReadError(error.description)
        }
    }
}
