import Sampler
import SoundFont

/// The waveforms a SoundFont's zones play, made on need: each distinct part of a sample a zone
/// plays becomes one `SamplerWaveform`, shared by every zone playing the same frames. A PCM
/// sample's part is read straight from the mapped file (no copy of the whole sample is kept, so
/// loading a font peaks near what its waveforms hold); an Ogg Vorbis stream is decoded once, the
/// first time a zone needs it, and kept until `releaseSampleData` since its other parts would
/// decode it again. Counts what it holds, so the loader can state its memory. Control thread.
final class SoundFontWaveforms {
    let font: SoundFontFile
    private var waveforms: [SoundFontZoneMapping.Frames: SamplerWaveform] = [:]
    private var decodedStreams: [Int: [Float]] = [:]
    /// Float frames held by the waveforms made so far.
    private(set) var residentFrames = 0

    init(font: SoundFontFile) { self.font = font }

    /// The waveform for `frames`; throws (naming the sample) when its data cannot be read.
    func waveform(for frames: SoundFontZoneMapping.Frames) throws(SoundFontError) -> SamplerWaveform {
        var key = frames
        key.startFrame = 0
        key.loop = nil
        key.loopsUntilRelease = false
        if let made = waveforms[key] { return made }
        let data = try read(frames.sample, frames.range)
        let sample = font.samples[frames.sample]
        let waveform: SamplerWaveform
        do {
            waveform = try SamplerWaveform(channels: [data], sampleRate: Double(sample.sampleRate))
        } catch {
            throw SoundFontError(path: font.path, chunk: "pdta/shdr", reason: "sample \(frames.sample) '\(sample.name)': \(error.description)")
        }
        waveforms[key] = waveform
        residentFrames += data.count
        return waveform
    }

    /// Forgets the decoded Vorbis streams (the waveforms keep their own copies).
    func releaseSampleData() { decodedStreams = [:] }

    /// Frames `range` of `sample` (clamped to what it holds), as `font.sampleFrames(sample)[range]`.
    private func read(_ sample: Int, _ range: Range<Int>) throws(SoundFontError) -> [Float] {
        guard font.samples.indices.contains(sample), font.samples[sample].isCompressed else { return try font.sampleFrames(sample, in: range) }
        let data: [Float]
        if let decoded = decodedStreams[sample] {
            data = decoded
        } else {
            data = try font.sampleFrames(sample)
            decodedStreams[sample] = data
        }
        return Array(data[range.clamped(to: 0..<data.count)])
    }
}
