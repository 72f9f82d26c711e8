import Foundation
import MIDI
import Sampler
import SoundFont
import SoundFontLoading
import Testing

/// How far above its keys' distance from the root a render plans a SoundFont zone to sound, from
/// the font alone (`SamplerZone.tuneCents`; its levels are built that far): what the song's own
/// margin does not cover.
@Suite("SoundFont level reach")
struct LevelReachTests {
    typealias W = SoundFontWriter
    typealias G = SoundFontGenerator

    /// The first zone's `tuneCents` when a song strikes `keys` on channel 1 with `writer`'s font.
    static func tuneCents(_ writer: W, keys: [UInt8] = [60]) throws -> Double {
        let path = NSTemporaryDirectory() + "audiograph-reach-\(UUID().uuidString).sf2"
        try Data(writer.bytes()).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let song = keys.map { MIDIMessage.noteOn(channel: 0, note: $0, velocity: 100) }
        let bank = try SoundFontBankLoader.load(path: path, song: song)
        return try #require(bank.programs.first?.zones.first).tuneCents
    }

    @Test func aPlainZoneAddsNothing() throws {
        #expect(try Self.tuneCents(Fixtures.minimal()) == 0)
    }

    @Test func theSamplesPitchCorrectionUpwardCounts() throws {
        var font = Fixtures.minimal()
        font.samples[0].correction = 30
        #expect(try Self.tuneCents(font) == 30)
        font.samples[0].correction = -30
        #expect(try Self.tuneCents(font) == 0)
    }

    @Test func aWideScaleTuningAndAFixedKeyCountWhereTheyReach() throws {
        // 200 cents a key from root 60, struck up to key 64: 800 cents up, where a key's distance counts 400.
        let wide = Fixtures.minimal(instrument: W.Zone(generators: [Fixtures.gen(.scaleTuning, 200)]))
        #expect(try Self.tuneCents(wide, keys: [60, 64]) == 400)
        // Key number fixed at 72: 12 semitones up whatever is struck.
        let fixed = Fixtures.minimal(instrument: W.Zone(generators: [Fixtures.gen(.keyNumber, 72)]))
        #expect(try Self.tuneCents(fixed) == 1200)
    }

    @Test func fontModulatorsToPitchCountBeyondTheDefaultsTheSongCovers() throws {
        // The font's own CC2 → fine tune, 100 cents: counted whole.
        let own = W.Modulator(source: 0x0082, destination: UInt16(G.fineTune.rawValue), amount: 100)
        #expect(try Self.tuneCents(Fixtures.minimal(instrument: W.Zone(modulators: [own]))) == 100)
        // The default CC1 → vibrato made 80 cents deep: the 30 beyond the song margin's 50.
        let deeper = W.Modulator(source: 0x0081, destination: UInt16(G.vibLFOToPitch.rawValue), amount: 80)
        #expect(try Self.tuneCents(Fixtures.minimal(instrument: W.Zone(modulators: [deeper]))) == 30)
    }
}
