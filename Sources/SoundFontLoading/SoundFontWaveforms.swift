import DSP
import Dispatch
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
    private var decodedStreams = DecodedStreams()
    /// Parts whose data could not be read when made ahead (`makeExpected`), by key.
    private var failures: [SoundFontZoneMapping.Frames: SoundFontError] = [:]
    /// Samples whose data could not be read, each with the first error.
    private var unreadable: [Int: SoundFontError] = [:]
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

    /// Makes the waveform of every part expected so far (`expect`), on all processors, so that
    /// `waveform(for:)` finds them made: reading and converting the samples is most of loading a
    /// render's font. One job per sample, largest first (a Vorbis stream is decoded once for all
    /// its parts). The waveforms are the same as made one by one. `.atLoad` only.
    func makeExpected() {
        guard reading == .atLoad else { return }
        var bySample: [Int: [SoundFontZoneMapping.Frames]] = [:]
        for (key, only) in onlyLoop {
            var made = key
            made.loop = only ?? nil
            if waveforms[made] == nil && failures[made] == nil { bySample[key.sample, default: []].append(made) }
        }
        let frames = bySample.mapValues { $0.map(\.range.count).reduce(0, +) }
        let jobs = bySample.keys.sorted { (frames[$0]!, $0) > (frames[$1]!, $1) }.map { bySample[$0]! }
        let results = ControlLocked<(made: [Int: [Result<SamplerWaveform, SoundFontError>]], short: [Int: Int])>(([:], [:]))
        let font = font
        DispatchQueue.concurrentPerform(iterations: jobs.count) { job in
            var decoded = DecodedStreams()
            let made = jobs[job].map { key in Result { () throws(SoundFontError) in try Self.make(key, font: font, decoded: &decoded) } }
            results.withLock {
                $0.made[job] = made
                $0.short.merge(decoded.short) { first, _ in first }
            }
        }
        let (made, short) = results.withLock { $0 }
        decodedStreams.short.merge(short) { first, _ in first }
        for (job, keys) in jobs.enumerated() {
            for (key, result) in zip(keys, made[job]!) {
                switch result {
                case .success(let waveform): remember(waveform, as: key)
                case .failure(let error): failures[key] = error
                }
            }
        }
    }

    /// The waveform for `frames`, and the frames a zone plays of it: `frames` as they are, or cut
    /// where the sample's Vorbis stream broke when it decoded short (`Frames.cut`). Throws (naming
    /// the sample) when its data cannot be read, and keeps the sample's first such error for
    /// `unreadableWarning`.
    func waveform(for frames: SoundFontZoneMapping.Frames) throws(SoundFontError) -> (waveform: SamplerWaveform, frames: SoundFontZoneMapping.Frames) {
        do {
            let waveform = try reading == .onNeed ? deferredWaveform(for: frames) : madeWaveform(for: frames)
            guard let decoded = decodedStreams.short[frames.sample] else { return (waveform, frames) }
            return (waveform, frames.cut(at: decoded - frames.range.lowerBound))
        } catch {
            if unreadable[frames.sample] == nil { unreadable[frames.sample] = error }
            throw error
        }
    }

    /// One line for the samples whose data could not be read (their zones are left out, so
    /// silent), however many zones play them; nil when every sample was read.
    var unreadableWarning: String? {
        guard let first = unreadable.keys.min(), let error = unreadable[first] else { return nil }
        guard unreadable.count > 1 else { return error.description }
        return "\(unreadable.count) samples cannot be read and their zones are silent; the first: \(error.description)"
    }

    /// `.atLoad`: the waveform made ahead (`makeExpected`), or made now.
    private func madeWaveform(for frames: SoundFontZoneMapping.Frames) throws(SoundFontError) -> SamplerWaveform {
        var key = Self.key(frames)
        // Played form only when every expected zone (this one too) plays it with this loop.
        let only = onlyLoop[key] ?? nil
        key.loop = Self.loopForever(frames).flatMap { loop in only == loop ? loop : nil }
        if let made = waveforms[key] { return made }
        if let failure = failures[key] { throw failure }
        let waveform = try Self.make(key, font: font, decoded: &decodedStreams)
        remember(waveform, as: key)
        return waveform
    }

    /// Keeps `waveform`, made for `key`; one made plain for a played form (a Vorbis stream that
    /// decodes short) serves the plain form too.
    private func remember(_ waveform: SamplerWaveform, as key: SoundFontZoneMapping.Frames) {
        waveforms[key] = waveform
        var plain = key
        plain.loop = nil
        if waveform.playedLoop == nil && waveforms[plain] == nil { waveforms[plain] = waveform }
        residentBytes += waveform.byteCount
    }

    /// The waveform of the part of a sample `key` names, in its played form when `key.loop` is
    /// set and the part reaches the loop's end (else plain); `decoded` keeps Vorbis streams
    /// decoded for the other parts of their sample.
    private static func make(_ key: SoundFontZoneMapping.Frames, font: SoundFontFile, decoded: inout DecodedStreams) throws(SoundFontError) -> SamplerWaveform {
        var data = try read(key.sample, key.range, font: font, decoded: &decoded)
        let rate = Double(font.samples[key.sample].sampleRate)
        do {
            if let playedLoop = key.loop, data.count >= playedLoop.endFrame {
                data.cut(at: playedLoop.endFrame)
                return try data.waveform(sampleRate: rate, playedLoop: playedLoop, font: font)
            }
            return try data.waveform(sampleRate: rate, playedLoop: nil, font: font)
        } catch {
            throw SoundFontError(path: font.path, chunk: "pdta/shdr", reason: "sample \(key.sample) '\(font.samples[key.sample].name)': \(error.description)")
        }
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
    func releaseSampleData() { decodedStreams.frames = [:] }

    /// One line naming the Vorbis streams that decoded short of the length their last Ogg page
    /// gives (a damaged stream), or nil when none did. They end where they break.
    var shortStreamsWarning: String? {
        let short = decodedStreams.short
        guard !short.isEmpty else { return nil }
        let named = short.keys.sorted().prefix(3).map { "'\(font.samples[$0].name)' (\(short[$0]!) of \(font.samples[$0].frameCount) frames)" }
        let more = short.count > 3 ? ", and \(short.count - 3) more" : ""
        let what = short.count == 1
            ? "1 Ogg Vorbis sample decodes short of its length and ends where it breaks, its loop cut there"
            : "\(short.count) Ogg Vorbis samples decode short of their length and end where they break, their loops cut there"
        return "sdta/smpl: \(what): \(named.joined(separator: ", "))\(more)"
    }

    /// Vorbis streams decoded so far, as long as they decode (a damaged one short of its
    /// sample's `frameCount`: its zones are cut to it, `waveform(for:)`; not padded, which would let
    /// a few bytes claiming 2^26 frames take 256 MB).
    struct DecodedStreams {
        var frames: [Int: [Float]] = [:]
        /// Sample → frames its stream decoded to, for those that decoded short.
        var short: [Int: Int] = [:]

        mutating func stream(_ sample: Int, font: SoundFontFile) throws(SoundFontError) -> [Float] {
            if let known = frames[sample] { return known }
            let data = try font.sampleFrames(sample)
            if data.count < font.samples[sample].frameCount { short[sample] = data.count }
            frames[sample] = data
            return data
        }
    }

    /// Frames `range` of `sample` (clamped to what it holds), as `font.sampleFrames(sample)[range]`:
    /// a 16-bit PCM sample as the pool frames to copy, anything else (24-bit, Vorbis) as Float.
    private static func read(_ sample: Int, _ range: Range<Int>, font: SoundFontFile, decoded: inout DecodedStreams) throws(SoundFontError) -> Frames {
        guard font.samples.indices.contains(sample), font.samples[sample].isCompressed else {
            if !font.has24BitSamples, font.samples.indices.contains(sample), font.samples[sample].isPlayable {
                let held = font.samples[sample], part = range.clamped(to: 0..<held.frameCount)
                let pool = held.start + part.lowerBound..<held.start + part.upperBound
                if pool.lowerBound >= 0 && pool.upperBound <= font.poolFrames { return .pcm16(pool) }
            }
            return .float(try font.sampleFrames(sample, in: range))
        }
        let data = try decoded.stream(sample, font: font)
        return .float(Array(data[range.clamped(to: 0..<data.count)]))
    }

    /// A part of a sample as read: Float, or the font's 16-bit pool frames, copied into the
    /// waveform as they are (half the memory).
    private enum Frames {
        case float([Float])
        case pcm16(Range<Int>)

        var count: Int {
            switch self {
            case .float(let frames): frames.count
            case .pcm16(let pool): pool.count
            }
        }

        mutating func cut(at end: Int) {
            switch self {
            case .float(var frames): frames.removeLast(frames.count - end); self = .float(frames)
            case .pcm16(let pool): self = .pcm16(pool.lowerBound..<pool.lowerBound + end)
            }
        }

        func waveform(sampleRate: Double, playedLoop: SamplerLoop?, font: SoundFontFile) throws(SamplerProgramError) -> SamplerWaveform {
            switch self {
            case .float(let frames):
                return try SamplerWaveform(channels: [frames], sampleRate: sampleRate, playedLoop: playedLoop)
            case .pcm16(let pool):
                return try SamplerWaveform(pcm16FrameCount: pool.count, sampleRate: sampleRate, playedLoop: playedLoop) { points in
                    font.copyPCM16(pool, into: points)
                }
            }
        }
    }
}
