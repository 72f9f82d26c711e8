import Sampler
import SoundFont

/// The waveforms a SoundFont's zones play, made on need: each distinct part of a sample a zone
/// plays becomes one `SamplerWaveform`, shared by every zone playing the same frames. A PCM
/// sample's part is read straight from the mapped file (no copy of the whole sample is kept, so
/// loading a font peaks near what its waveforms hold); an Ogg Vorbis stream is decoded once, the
/// first time a zone needs it, and kept until `releaseSampleData` since its other parts would
/// decode it again. A part that every zone to be built (`expect`) plays looping until the voice
/// ends, with one loop, is made in that played form and cut at the loop's end
/// (`SamplerWaveform(playedLoop:)`): it is held once, not once plain and once as the region's
/// looped copy. Counts what it holds, so the loader can state its memory. Control thread.
///
/// Read `.onNeed` (`play`), a part of a sample becomes a deferred waveform instead, holding no
/// frames: its regions read them from the font's file when the live builder prepares them
/// (`FontSampleSource`, `SoundFontSampleData`), and load reads no sample data at all.
final class SoundFontWaveforms {
    let font: SoundFontFile
    let reading: SoundFontSamples
    /// The font's sample data, kept open for the deferred waveforms (`.onNeed`).
    private var sampleData: SoundFontSampleData?
    private var waveforms: [SoundFontZoneMapping.Frames: SamplerWaveform] = [:]
    private var decodedStreams: [Int: [Float]] = [:]
    /// Per part of a sample (`key`): the one loop every zone expected so far plays it with
    /// forever, or nil when some zone plays it otherwise.
    private var onlyLoop: [SoundFontZoneMapping.Frames: SamplerLoop?] = [:]
    /// Bytes of sample data held by the waveforms made so far.
    private(set) var residentBytes = 0

    init(font: SoundFontFile, reading: SoundFontSamples = .atLoad) {
        self.font = font
        self.reading = reading
    }

    /// Records that a zone will play `frames`: call for every zone before the first `waveform(for:)`.
    func expect(_ frames: SoundFontZoneMapping.Frames) {
        let key = Self.key(frames), loop = Self.loopForever(frames)
        if let known = onlyLoop[key] {
            onlyLoop[key] = .some(known == loop ? loop : nil)
        } else {
            onlyLoop[key] = .some(loop)
        }
    }

    /// The waveform for `frames`; throws (naming the sample) when its data cannot be read.
    func waveform(for frames: SoundFontZoneMapping.Frames) throws(SoundFontError) -> SamplerWaveform {
        if reading == .onNeed { return try deferredWaveform(for: frames) }
        var key = Self.key(frames)
        // Played form only when every expected zone (this one too) plays it with this loop.
        let only = onlyLoop[key] ?? nil
        let playedLoop = Self.loopForever(frames).flatMap { loop in only == loop ? loop : nil }
        key.loop = playedLoop
        if let made = waveforms[key] { return made }
        var data = try read(frames.sample, frames.range)
        let rate = Double(font.samples[frames.sample].sampleRate)
        let waveform: SamplerWaveform
        do {
            if let playedLoop, data.count >= playedLoop.endFrame {
                data.cut(at: playedLoop.endFrame)
                waveform = try data.waveform(sampleRate: rate, playedLoop: playedLoop)
            } else {
                key.loop = nil  // a Vorbis stream that decodes short: the plain waveform, as any zone gets
                if let made = waveforms[key] { return made }
                waveform = try data.waveform(sampleRate: rate, playedLoop: nil)
            }
        } catch {
            throw SoundFontError(path: font.path, chunk: "pdta/shdr", reason: "sample \(frames.sample) '\(font.samples[frames.sample].name)': \(error.description)")
        }
        waveforms[key] = waveform
        residentBytes += waveform.byteCount
        return waveform
    }

    /// The deferred waveform of the part of the sample `frames` plays; throws (naming the sample)
    /// when the sample cannot play, as reading it would.
    private func deferredWaveform(for frames: SoundFontZoneMapping.Frames) throws(SoundFontError) -> SamplerWaveform {
        let key = Self.key(frames)
        if let made = waveforms[key] { return made }
        guard font.samples.indices.contains(frames.sample) else {
            throw SoundFontError(path: font.path, chunk: "pdta/shdr", reason: "no sample \(frames.sample) (the font has \(font.samples.count))")
        }
        let sample = font.samples[frames.sample]
        if case .dropped(let reason) = sample.playability {
            throw SoundFontError(path: font.path, chunk: "pdta/shdr", reason: "sample \(frames.sample) '\(sample.name)' cannot play: \(reason)")
        }
        let data: SoundFontSampleData
        if let open = sampleData {
            data = open
        } else {
            data = try font.sampleData()
            sampleData = data
        }
        let part = frames.range.clamped(to: 0..<sample.frameCount), isPCM16 = !sample.isCompressed && !font.has24BitSamples
        let waveform: SamplerWaveform
        do {
            waveform = try SamplerWaveform(
                source: FontSampleSource(data: data, sample: frames.sample, range: part, isPCM16: isPCM16), channelCount: 1,
                frameCount: part.count, sampleRate: Double(sample.sampleRate), bytesPerFrame: isPCM16 ? 2 : 4)
        } catch {
            throw SoundFontError(path: font.path, chunk: "pdta/shdr", reason: "sample \(frames.sample) '\(sample.name)': \(error.description)")
        }
        waveforms[key] = waveform
        return waveform
    }

    /// The part of the sample `frames` plays, whatever the zone's loop and start.
    private static func key(_ frames: SoundFontZoneMapping.Frames) -> SoundFontZoneMapping.Frames {
        var key = frames
        key.startFrame = 0
        key.loop = nil
        key.loopsUntilRelease = false
        return key
    }

    /// The loop a zone of `frames` plays until the voice ends (sample mode 1), when nothing after
    /// its end is ever played (the voice starts before it); nil otherwise.
    private static func loopForever(_ frames: SoundFontZoneMapping.Frames) -> SamplerLoop? {
        guard let loop = frames.loop, !frames.loopsUntilRelease, frames.startFrame < loop.endFrame else { return nil }
        return loop
    }

    /// Forgets the decoded Vorbis streams (the waveforms keep their own copies).
    func releaseSampleData() { decodedStreams = [:] }

    /// Frames `range` of `sample` (clamped to what it holds), as `font.sampleFrames(sample)[range]`:
    /// a 16-bit PCM sample as its points, anything else (24-bit, Vorbis) as Float.
    private func read(_ sample: Int, _ range: Range<Int>) throws(SoundFontError) -> Frames {
        guard font.samples.indices.contains(sample), font.samples[sample].isCompressed else {
            if !font.has24BitSamples, font.samples.indices.contains(sample), font.samples[sample].isPlayable {
                let held = font.samples[sample], part = range.clamped(to: 0..<held.frameCount)
                if let points = font.pcm16Frames(held.start + part.lowerBound..<held.start + part.upperBound) { return .pcm16(points) }
            }
            return .float(try font.sampleFrames(sample, in: range))
        }
        let data: [Float]
        if let decoded = decodedStreams[sample] {
            data = decoded
        } else {
            data = try font.sampleFrames(sample)
            decodedStreams[sample] = data
        }
        return .float(Array(data[range.clamped(to: 0..<data.count)]))
    }

    /// A part of a sample as read: 16-bit points kept as they are (half the memory), or Float.
    private enum Frames {
        case float([Float])
        case pcm16([Int16])

        var count: Int {
            switch self {
            case .float(let frames): frames.count
            case .pcm16(let points): points.count
            }
        }

        mutating func cut(at end: Int) {
            switch self {
            case .float(var frames): frames.removeLast(frames.count - end); self = .float(frames)
            case .pcm16(var points): points.removeLast(points.count - end); self = .pcm16(points)
            }
        }

        func waveform(sampleRate: Double, playedLoop: SamplerLoop?) throws(SamplerProgramError) -> SamplerWaveform {
            switch self {
            case .float(let frames): try SamplerWaveform(channels: [frames], sampleRate: sampleRate, playedLoop: playedLoop)
            case .pcm16(let points): try SamplerWaveform(pcm16: [points], sampleRate: sampleRate, playedLoop: playedLoop)
            }
        }
    }
}
