import Sampler
import SoundFont

/// The waveforms a SoundFont's zones play, made on need: each sample is read (16-bit frames from
/// the mapped file, or its Ogg Vorbis stream decoded) the first time a zone needs it, and each
/// distinct part of it a zone plays becomes one `SamplerWaveform`, shared by every zone playing
/// the same frames. Counts what it holds, so the loader can state its memory. Control thread.
final class SoundFontWaveforms {
    let font: SoundFontFile
    private var waveforms: [SoundFontZoneMapping.Frames: SamplerWaveform] = [:]
    private var samplesRead: [Int: [Float]] = [:]
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
        let data = try read(frames.sample)
        let range = frames.range.clamped(to: 0..<data.count)
        let sample = font.samples[frames.sample]
        let waveform: SamplerWaveform
        do {
            waveform = try SamplerWaveform(channels: [Array(data[range])], sampleRate: Double(sample.sampleRate))
        } catch {
            throw SoundFontError(path: font.path, chunk: "pdta/shdr", reason: "sample \(frames.sample) '\(sample.name)': \(error.description)")
        }
        waveforms[key] = waveform
        residentFrames += range.count
        return waveform
    }

    /// Forgets the decoded samples (the waveforms keep their own copies).
    func releaseSampleData() { samplesRead = [:] }

    private func read(_ sample: Int) throws(SoundFontError) -> [Float] {
        if let data = samplesRead[sample] { return data }
        let data = try font.sampleFrames(sample)
        samplesRead[sample] = data
        return data
    }
}
