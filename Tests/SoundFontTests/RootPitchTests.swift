import Foundation
import MIDI
import Sampler
import SoundFont
import SoundFontLoading
import Testing

/// When a render's song lets a SoundFont zone sound only at its root pitch
/// (`SamplerZone.playsAtRootPitch`), its voices step one frame per output frame at the sample's
/// rate and read the frames themselves, so the render builds that region no levels
/// (`LevelRequest.needsLevels`). Every way the pitch can leave the root makes the zone false: the
/// keys struck, the zone's tunings and pitch modulation, and the song's bends, tunings and vibrato.
@Suite("SoundFont root pitch")
struct RootPitchTests {
    typealias W = SoundFontWriter
    typealias G = SoundFontGenerator

    /// Whether the first zone plays at its root pitch when `song` (on channel 1) is rendered with `writer`'s font.
    static func atRoot(_ writer: W, song: [MIDIMessage] = [.noteOn(channel: 0, note: 60, velocity: 100)], tuningHeadroom: Double = 0) throws -> Bool {
        let path = NSTemporaryDirectory() + "audiograph-root-\(UUID().uuidString).sf2"
        try Data(writer.bytes()).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bank = try SoundFontBankLoader.load(path: path, song: song, tuningHeadroomSemitones: tuningHeadroom)
        return try #require(bank.programs.first?.zones.first).playsAtRootPitch
    }

    static func zone(_ generators: [(UInt16, Int16)] = [], modulators: [W.Modulator] = []) -> W {
        Fixtures.minimal(instrument: W.Zone(generators: generators, modulators: modulators))
    }

    @Test func theRootKeyAloneOnASteadyChannel() throws {
        #expect(try Self.atRoot(Fixtures.minimal()))
        let twice: [MIDIMessage] = [.noteOn(channel: 0, note: 60, velocity: 50), .noteOn(channel: 0, note: 60, velocity: 120)]
        #expect(try Self.atRoot(Fixtures.minimal(), song: twice))
    }

    @Test func anotherKeyIsNot() throws {
        #expect(try !Self.atRoot(Fixtures.minimal(), song: [.noteOn(channel: 0, note: 59, velocity: 100)]))
        #expect(try !Self.atRoot(Fixtures.minimal(), song: [60, 61].map { .noteOn(channel: 0, note: $0, velocity: 100) }))
    }

    @Test func withoutScaleTuningEveryKeyIsTheRoot() throws {
        let drum = Self.zone([Fixtures.gen(.scaleTuning, 0)])
        #expect(try Self.atRoot(drum, song: [.noteOn(channel: 0, note: 35, velocity: 100)]))
        var corrected = drum
        corrected.samples[0].correction = -20
        #expect(try Self.atRoot(corrected, song: [.noteOn(channel: 0, note: 35, velocity: 100)]))
        // Unless the root lies outside the 1500…13500 cents the voice clips its root to.
        var low = drum
        low.samples[0].pitch = 15
        low.samples[0].correction = 50
        #expect(try !Self.atRoot(low, song: [.noteOn(channel: 0, note: 35, velocity: 100)]))
        low.samples[0].correction = -50
        #expect(try Self.atRoot(low, song: [.noteOn(channel: 0, note: 35, velocity: 100)]))
    }

    @Test func aFixedKeyCountsAsStruck() throws {
        #expect(try Self.atRoot(Self.zone([Fixtures.gen(.keyNumber, 60)]), song: [.noteOn(channel: 0, note: 40, velocity: 100)]))
        #expect(try !Self.atRoot(Self.zone([Fixtures.gen(.keyNumber, 61)])))
    }

    @Test func theZonesTuningsAndPitchModulationAreNot() throws {
        var corrected = Fixtures.minimal()
        corrected.samples[0].correction = 5
        #expect(try !Self.atRoot(corrected))
        for generator in [G.coarseTune, .fineTune, .modEnvToPitch, .modLFOToPitch, .vibLFOToPitch] {
            #expect(try !Self.atRoot(Self.zone([Fixtures.gen(generator, 1)])), "\(generator)")
        }
        // The font's own CC2 → fine tune; the default pitch-wheel modulator is harmless on a steady channel.
        let own = W.Modulator(source: 0x0082, destination: UInt16(G.fineTune.rawValue), amount: 100)
        #expect(try !Self.atRoot(Self.zone(modulators: [own])))
    }

    @Test func theSongsBendsTuningsAndVibratoAreNot() throws {
        let note = MIDIMessage.noteOn(channel: 0, note: 60, velocity: 100)
        let moves: [[MIDIMessage]] = [
            [.pitchBend(channel: 0, value: -1), note],  // down as well as up
            [note, .pitchBend(channel: 0, value: 200)],  // after the note too: it sounds on
            [.controlChange(channel: 0, controller: 1, value: 1), note],  // vibrato by the mod wheel
            [.channelPressure(channel: 0, pressure: 1), note],  // and by channel pressure
            // RPN 1, fine tuning, a few cents down.
            [.controlChange(channel: 0, controller: 101, value: 0), .controlChange(channel: 0, controller: 100, value: 1),
             .controlChange(channel: 0, controller: 6, value: 60), note],
        ]
        for song in moves {
            #expect(try !Self.atRoot(Fixtures.minimal(), song: song), "\(song)")
        }
        // A bend on another channel does not move this one; the player's tuning headroom does.
        #expect(try Self.atRoot(Fixtures.minimal(), song: [.pitchBend(channel: 1, value: 500), note]))
        #expect(try !Self.atRoot(Fixtures.minimal(), tuningHeadroom: 0.5))
    }
}
