import Foundation
import MIDI
import Sampler
import SoundFont
import SoundFontLoading
import Testing

/// SF3 (Ogg Vorbis samples): FluidR3Mono_GM.sf3 holds the left halves of FluidR3_GM.sf2's samples
/// under the same names, Vorbis-compressed (and about 1 dB quieter: MuseScore lowered them when it
/// made the SF3). Decoded, they match an independent Vorbis decoder (sox, libvorbisfile) and the
/// 16-bit originals within the codec's error.
@Suite("SF3 samples")
struct SF3Tests {
    /// Least-squares gain of each decoded sample against its 16-bit original: the font's level
    /// change, measured 0.889–0.899 (−1.0 to −0.9 dB); anything else would be a decoding error.
    static let gainRange = 0.87...0.92
    /// Signal-to-error ratio once that gain is taken out: Vorbis at the font's bitrate keeps the
    /// waveform to better than this on every sample compared (measured minimum printed by the test).
    static let minimumSignalToErrorDecibels = 20.0
    /// …and to better than this on the median sample.
    static let minimumMedianDecibels = 30.0
    /// sox decodes through libvorbisfile to 16-bit: ours (Float from libsndfile) must agree to within
    /// its rounding, 1 LSB, plus a margin for decoder float differences.
    static let soxToleranceLSB: Float = 1.5

    static func bothFontsInstalled() -> Bool {
        DebianFontTests.installed(DebianFontTests.fluidR3) && DebianFontTests.installed(DebianFontTests.fluidR3Mono)
    }

    @Test func decodedSamplesMatchTheSF2Originals() throws {
        guard Self.bothFontsInstalled() else {
            print("skipped: needs fluid-soundfont-gm and fluidr3mono-gm-soundfont (scripts/install-deps)")
            return
        }
        let sf2 = try SoundFontFile.load(path: DebianFontTests.fluidR3)
        let sf3 = try SoundFontFile.load(path: DebianFontTests.fluidR3Mono)
        let originals = Dictionary(sf2.samples.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { a, _ in a })
        let pairs = sf3.samples.enumerated().compactMap { s -> (Int, Int)? in originals[s.element.name].map { (s.offset, $0) } }
        #expect(pairs.count == 926)
        var ratios: [Double] = [], gains: [Double] = []
        for (compressed, original) in pairs.enumerated().filter({ $0.offset % 10 == 0 }).map(\.element) {
            let a = sf3.samples[compressed], b = sf2.samples[original]
            #expect(a.frameCount == b.frameCount && a.loopStart == b.loopStart && a.loopEnd == b.loopEnd, "\(a.name)")
            #expect(a.sampleRate == b.sampleRate && a.originalPitch == b.originalPitch && a.pitchCorrection == b.pitchCorrection)
            let decoded = try sf3.sampleFrames(compressed).map(Double.init), reference = try sf2.sampleFrames(original).map(Double.init)
            try #require(decoded.count == reference.count, "\(a.name)")
            let gain = zip(decoded, reference).reduce(0) { $0 + $1.0 * $1.1 } / reference.reduce(0) { $0 + $1 * $1 }
            let signal = reference.reduce(0) { $0 + gain * gain * $1 * $1 }
            let error = zip(decoded, reference).reduce(0) { $0 + ($1.0 - gain * $1.1) * ($1.0 - gain * $1.1) }
            let ratio = 10 * log10(signal / max(error, 1e-30))
            ratios.append(ratio)
            gains.append(gain)
            #expect(Self.gainRange.contains(gain), "\(a.name): gain \(gain)")
            #expect(ratio >= Self.minimumSignalToErrorDecibels, "\(a.name): \(ratio) dB")
        }
        let sorted = ratios.sorted()
        let median = sorted[sorted.count / 2]
        print(
            "SF3 vs SF2: \(ratios.count) samples, gain \(gains.min()!)…\(gains.max()!), signal-to-error after gain "
                + "min \(sorted.first!) dB, median \(median) dB, max \(sorted.last!) dB")
        #expect(median >= Self.minimumMedianDecibels)
    }

    /// The fuzz seed made by Tests/hostile/make-soundfont-seeds.py: one 50 ms 440 Hz sine at 22,050 Hz,
    /// Vorbis in an odd, unpadded smpl chunk.
    static let seed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../fuzz-corpus/soundfont/vorbis.sf3").path

    @Test func aSmallSF3IsProbedAtLoadAndDecodedOnNeed() throws {
        let font = try SoundFontFile.load(path: Self.seed)
        #expect(font.info.isSF3 && font.warnings.isEmpty)
        let sample = try #require(font.samples.first)
        #expect(sample.isCompressed && sample.isPlayable && sample.frameCount == 1_103 && sample.sampleRate == 22_050)
        #expect(sample.loopStart == 100 && sample.loopEnd == 900)
        let frames = try font.sampleFrames(0)
        #expect(frames.count == sample.frameCount)
        // A 440 Hz sine: zero crossings every 22050 / 880 frames in the steady middle.
        let middle = frames[200..<900]
        let crossings = zip(middle, middle.dropFirst()).filter { ($0.0 < 0) != ($0.1 < 0) }.count
        #expect(abs(Double(crossings) - 700.0 * 880 / 22_050) <= 1)
        #expect(middle.map(abs).max()! > 0.5)
    }

    /// A damaged stream: the seed's last Ogg page made to claim `claimed` frames (its CRC
    /// recomputed, so the page still decodes) and its loop made to end at `loopEnd`. The stream
    /// decodes short of that (1536 frames); the font plays, as FluidSynth plays such a font, rather
    /// than being refused for a loop past the decoded end: the zone ends where the stream breaks,
    /// its loop cut there, and one line names the sample. Nothing is held for the frames claimed.
    @Test(arguments: [(3_000, 1_300), (3_000, 2_500), (SoundFontSample.maxFrames, 2_500)])
    func aStreamThatDecodesShortEndsWhereItBreaksWithOneWarning(claimed: Int, loopEnd: Int) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.seed)))
        let lastPage = try #require(Self.pages(bytes).last)
        withUnsafeBytes(of: Int64(claimed).littleEndian) { bytes.replaceSubrange(lastPage.lowerBound + 6..<lastPage.lowerBound + 14, with: $0) }
        bytes.replaceSubrange(lastPage.lowerBound + 22..<lastPage.lowerBound + 26, with: [0, 0, 0, 0])
        withUnsafeBytes(of: Self.oggCRC(bytes[lastPage]).littleEndian) { bytes.replaceSubrange(lastPage.lowerBound + 22..<lastPage.lowerBound + 26, with: $0) }
        let header = try #require(Data(bytes).range(of: Data("shdr".utf8))).lowerBound + 8
        withUnsafeBytes(of: UInt32(loopEnd).littleEndian) { bytes.replaceSubrange(header + 32..<header + 36, with: $0) }
        let path = NSTemporaryDirectory() + "audiograph-short-\(UUID().uuidString).sf3"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        let bank = try SoundFontBankLoader.load(path: path, song: [.noteOn(channel: 0, note: 69, velocity: 100)])
        let short = bank.warnings.filter { $0.contains("decodes short") }
        #expect(short.count == 1 && short.first?.contains("'Vorbis' (1536 of \(claimed) frames)") == true, "\(bank.warnings)")
        let zone = try #require(bank.programs.first?.zones.first)
        #expect(zone.loop == SamplerLoop(startFrame: 100, endFrame: min(loopEnd, 1_536)), "the loop within what decoded")
        #expect(zone.waveform.frameCount <= 1_536 && bank.residentBytes <= 4 * 1_536, "no more held than decoded")
        let played = zone.waveform.channel(0), whole = try SoundFontFile.load(path: Self.seed).sampleFrames(0)
        let shared = min(played.count, whole.count)
        #expect(shared == whole.count && played[..<shared] == whole[..<shared], "what decodes plays as the undamaged stream decodes")
    }

    /// Streams that do not decode (the page of their setup header damaged): the font still plays,
    /// the zones on them are left out, and one line says so, however many samples and zones.
    @Test func streamsThatDoNotDecodeAreSaidInOneLine() throws {
        guard DebianFontTests.installed(DebianFontTests.fluidR3Mono) else {
            return print("skipped: needs fluidr3mono-gm-soundfont (scripts/install-deps)")
        }
        let font = try SoundFontFile.load(path: DebianFontTests.fluidR3Mono)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: DebianFontTests.fluidR3Mono)))
        let smpl = try #require(Data(bytes).range(of: Data("smpl".utf8))).lowerBound + 8
        let piano = try #require(font.presets.firstIndex { $0.bank == 0 && $0.program == 0 })
        let damaged = Set(font.regions(ofPreset: piano).map(\.sample))
        for sample in damaged {
            let start = smpl + font.samples[sample].start
            let setup = try #require(Self.pages(Array(bytes[start..<smpl + font.samples[sample].end])).dropFirst().first)
            bytes.replaceSubrange(start + setup.lowerBound + 37..<start + setup.lowerBound + 101, with: repeatElement(0, count: 64))
        }
        let path = NSTemporaryDirectory() + "audiograph-undecodable-\(UUID().uuidString).sf3"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        let song = (0...127).map { MIDIMessage.noteOn(channel: 0, note: UInt8($0), velocity: 100) }
        let bank = try SoundFontBankLoader.load(path: path, song: song)
        let said = bank.warnings.filter { $0.contains("does not decode") }
        #expect(damaged.count > 1 && said.count == 1, "\(damaged.count): \(bank.warnings)")
        #expect(said.first?.hasPrefix("\(damaged.count) samples cannot be read and their zones are silent; the first: \(path): sdta/smpl at byte ") == true, "\(said)")
        #expect(bank.programs[piano].zones.isEmpty)
    }

    /// Byte ranges of the Ogg pages in `bytes`.
    static func pages(_ bytes: [UInt8]) -> [Range<Int>] {
        var pages: [Range<Int>] = [], offset = 0
        while offset + 27 <= bytes.count, let start = (offset...bytes.count - 4).first(where: { bytes[$0..<$0 + 4].elementsEqual("OggS".utf8) }) {
            let segments = Int(bytes[start + 26])
            let length = 27 + segments + bytes[start + 27..<start + 27 + segments].reduce(0) { $0 + Int($1) }
            pages.append(start..<start + length)
            offset = start + length
        }
        return pages
    }

    /// Ogg's page checksum (RFC 3533): CRC-32, polynomial 0x04C11DB7, unreflected, over the page
    /// with its checksum field zeroed.
    static func oggCRC(_ page: ArraySlice<UInt8>) -> UInt32 {
        page.reduce(UInt32(0)) { crc, byte in
            (0..<8).reduce(crc ^ UInt32(byte) << 24) { c, _ in c & 0x8000_0000 != 0 ? c << 1 ^ 0x04C1_1DB7 : c << 1 }
        }
    }

    @Test func decodingAgreesWithSox() throws {
        guard DebianFontTests.installed(DebianFontTests.fluidR3Mono), DebianFontTests.installed("/usr/bin/sox") else {
            print("skipped: needs fluidr3mono-gm-soundfont and sox (scripts/install-deps)")
            return
        }
        let sf3 = try SoundFontFile.load(path: DebianFontTests.fluidR3Mono)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: DebianFontTests.fluidR3Mono))
        let smpl = try #require(bytes.range(of: Data("smpl".utf8))).lowerBound + 8
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sf3-sox-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for index in stride(from: 0, to: sf3.samples.count, by: 97) {
            let sample = sf3.samples[index]
            let ogg = dir.appendingPathComponent("\(index).ogg"), raw = dir.appendingPathComponent("\(index).raw")
            try bytes[(smpl + sample.start)..<(smpl + sample.end)].write(to: ogg)
            let sox = Process()
            sox.executableURL = URL(fileURLWithPath: "/usr/bin/sox")
            sox.arguments = [ogg.path, "-t", "raw", "-e", "signed-integer", "-b", "16", "-L", raw.path]
            try sox.run()
            sox.waitUntilExit()
            let reference = try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
            let ours = try sf3.sampleFrames(index)
            #expect(ours.count == reference.count, "\(sample.name)")
            let worst = zip(ours, reference).map { abs($0.0 * 32_768 - Float($0.1)) }.max() ?? 0
            #expect(worst <= Self.soxToleranceLSB, "\(sample.name): \(worst) LSB")
        }
    }
}
