import AudioTestSupport
import Foundation
import DSP
import MIDI
import Sampler
import Testing

/// Pitch of SoundFont voices as FluidSynth 2.3 computes it: scale tuning around the root (the
/// overriding root key or the sample's, less its pitch correction), coarse and fine tune, the
/// pitch wheel through its default modulator (× RPN 0 / 128, 12700 cents: +198 at full bend,
/// sensitivity 2), whole cents.
@Suite struct SoundFontPitchTests {
    func frequency(key: Int, generators: [Int: Double] = [:], correction: Int = 0, events: [At] = []) throws -> Double {
        var zone = soundFontZone(.sineCycle(frequencyHz: 440), rootKey: 69, generators: generators)
        zone.soundFont?.pitchCorrection = correction
        let sampler = soundFontInstrument(try soundFontProgram([zone]))
        let out = render(sampler, frames: 22_050, events: events + [At(100, noteOn(key))])
        return try #require(Measure.frequency(Array(out.left[4_410...]), sampleRate: soundFontTestRate))
    }

    func cents(_ f: Double) -> Double { Measure.cents(f, relativeTo: 440) }

    @Test func rootKeyPlaysTheSample() throws {
        #expect(abs(cents(try frequency(key: 69))) < 0.2)
        #expect(abs(cents(try frequency(key: 81)) - 1200) < 0.2)
    }

    @Test func fullBendIsAHundredNinetyEightCents() throws {
        let bend = MIDIMessage.pitchBend(channel: 0, value: 8191)
        #expect(abs(cents(try frequency(key: 69, events: [At(0, bend)])) - 198) < 0.3)
    }

    @Test func coarseAndFineTune() throws {
        let f = try frequency(key: 69, generators: [SF2Generator.coarseTune: 1, SF2Generator.fineTune: 50])
        #expect(abs(cents(f) - 150) < 0.2)
    }

    @Test func scaleTuningHalvesTheSteps() throws {
        let f = try frequency(key: 81, generators: [SF2Generator.scaleTuning: 50])
        #expect(abs(cents(f) - 600) < 0.2)
    }

    @Test func pitchCorrectionRaisesAFlatSample() throws {
        #expect(abs(cents(try frequency(key: 69, correction: 20)) - 20) < 0.2)
    }

    @Test func overridingRootKey() throws {
        #expect(abs(cents(try frequency(key: 69, generators: [SF2Generator.overridingRootKey: 57])) - 1200) < 0.2)
    }

    @Test func keynumOverrideFixesThePitch() throws {
        #expect(abs(cents(try frequency(key: 40, generators: [SF2Generator.keyNumber: 69]))) < 0.2)
    }

    /// CC1 at 127 through the default modulator: a vibrato of ±50 × 127/128 cents at the vibrato
    /// LFO's rate (here 5.0 Hz, starting after its delay at 0 and rising).
    @Test func modWheelVibratoDepth() throws {
        let rateCents = 1200 * log2(5.0 / 8.176)
        var zone = soundFontZone(.sineCycle(frequencyHz: 440), rootKey: 69, generators: [SF2Generator.vibLFOFrequency: rateCents])
        zone.soundFont?.pitchCorrection = 0
        let sampler = soundFontInstrument(try soundFontProgram([zone]))
        let out = render(sampler, frames: 44_100, events: [At(0, controlChange(1, 127)), At(0, noteOn(69))])
        // Quarter cycle (50 ms) in: the LFO at its top; three quarters: its bottom.
        let top = try #require(Measure.frequency(Array(out.left[2_000..<2_500]), sampleRate: soundFontTestRate))
        let bottom = try #require(Measure.frequency(Array(out.left[6_400..<6_900]), sampleRate: soundFontTestRate))
        #expect(abs(cents(top) - 49.6) < 3)
        #expect(abs(cents(bottom) + 49.6) < 3)
    }
}
