import AudioTestSupport
import Foundation
import DSP
import Engine
import MIDI
import Sampler
import SamplerLevels
import Testing

/// The player's calibration measured on the engine's output, on the sampler (channel 1, a sine
/// cycle rooted at A4) and the synth (channel 2) alike: master tuning, RPN 1/2, NRPN ignored,
/// the velocity curve and the soft pedal. Reverb sends are off so the dry note is measured.
@Suite struct CalibrationTests {
    static let sampler: UInt8 = 0, synth: UInt8 = 1
    let rate = EngineRig.rate

    func rig(_ settings: [String] = []) throws -> EngineRig {
        let program = SamplerProgram.single(.sineCycle(frequencyHz: 440, frames: 2048), rootKey: 69, globals: SamplerGlobals(voiceCount: 64))
        program.buildAllLevels()
        return try EngineRig(content: EngineContent(samplerProgram: program), settings: ["synth.sustain=1"] + settings)
    }

    func cc(_ channel: UInt8, _ controller: UInt8, _ value: UInt8) -> (Int, MIDIMessage) {
        (0, .controlChange(channel: channel, controller: controller, value: value))
    }

    /// Renders `note` on `channel` after `setup` (all at frame 0, reverb send off) for 0.5 s.
    func play(_ channel: UInt8, note: UInt8 = 69, velocity: UInt8 = 100, setup: [(Int, MIDIMessage)] = [],
              settings: [String] = []) throws -> [Float] {
        try rig(settings).render(frames: 24000, events: [cc(channel, MIDIController.reverbSend, 0)] + setup + [
            (0, .noteOn(channel: channel, note: note, velocity: velocity)),
        ]).left
    }

    func pitch(_ x: [Float], near guess: Double) -> Double {
        Measure.frequency(x[4800...], sampleRate: rate, guess: guess)!
    }

    func level(_ x: [Float]) -> Double { Measure.decibels(Measure.rms(x[12000...])) }

    /// RPN `number` selected, then data entry MSB (and LSB).
    func rpn(_ channel: UInt8, _ number: UInt8, msb: UInt8, lsb: UInt8? = nil) -> [(Int, MIDIMessage)] {
        [cc(channel, 101, 0), cc(channel, 100, number), cc(channel, 6, msb)] + (lsb.map { [cc(channel, 38, $0)] } ?? [])
    }

    @Test(arguments: [sampler, synth])
    func a4At442HzPlays442Hz(channel: UInt8) throws {
        let measured = pitch(try play(channel, settings: ["tuning.a4=442"]), near: 442)
        #expect(abs(Measure.cents(measured, relativeTo: 442)) < 0.1, "\(measured) Hz")
        // Other notes move with it: E5 a fifth and an octave up, equal-tempered from 442.
        let e5 = pitch(try play(channel, note: 76, settings: ["tuning.a4=442"]), near: 442 * pow(2, 7.0 / 12))
        #expect(abs(Measure.cents(e5, relativeTo: 442 * pow(2, 7.0 / 12))) < 0.1, "\(e5) Hz")
    }

    /// RPN 1 data 12288 (MSB 96) is +50 cents, MSB 32 −50 cents with LSB 0; RPN 2 MSB 67 is +3 semitones.
    @Test(arguments: [sampler, synth])
    func rpnFineAndCoarseTuningShiftThePitchInCents(channel: UInt8) throws {
        for (setup, cents) in [(rpn(channel, 1, msb: 96), 50.0), (rpn(channel, 1, msb: 32, lsb: 0), -50.0),
                               (rpn(channel, 2, msb: 67), 300.0), (rpn(channel, 2, msb: 62) + rpn(channel, 1, msb: 80), -200.0 + 25)] {
            let measured = pitch(try play(channel, setup: setup), near: 440 * pow(2, cents / 1200))
            #expect(abs(Measure.cents(measured, relativeTo: 440) - cents) < 0.1, "expected \(cents) cents, got \(measured) Hz")
        }
    }

    /// Data entry after an NRPN select changes nothing: the render is bit-identical to one
    /// without those messages; an RPN select afterwards works again.
    @Test(arguments: [sampler, synth])
    func dataEntryAfterAnNRPNSelectChangesNothing(channel: UInt8) throws {
        let nrpn = [cc(channel, 99, 0), cc(channel, 98, 1), cc(channel, 6, 90), cc(channel, 38, 7), cc(channel, 6, 10)]
        let plain = try play(channel), withNRPN = try play(channel, setup: nrpn)
        #expect(plain == withNRPN)
        let then = pitch(try play(channel, setup: nrpn + rpn(channel, 2, msb: 65)), near: 440 * pow(2, 1.0 / 12))
        #expect(abs(Measure.cents(then, relativeTo: 440) - 100) < 0.1)
    }

    /// `velocity.curve` = γ maps v to 127·(v/127)^γ before the program's own curve; both
    /// instruments use the DLS concave curve here, 40·log10(v/127) dB.
    @Test(arguments: [sampler, synth], [0.5, 2.0])
    func velocityCurveLevelsFollowTheFormula(channel: UInt8, gamma: Double) throws {
        let reference = level(try play(channel, velocity: 127, settings: ["velocity.curve=\(gamma)"]))
        #expect(reference > -20)
        for velocity in [20, 64, 100] {
            let mapped = (127 * pow(Double(velocity) / 127, gamma)).rounded()
            let expected = 40 * log10(mapped / 127)
            let measured = level(try play(channel, velocity: UInt8(velocity), settings: ["velocity.curve=\(gamma)"])) - reference
            #expect(abs(measured - expected) < 0.05, "γ \(gamma) v \(velocity): \(measured) dB, expected \(expected)")
        }
    }

    /// CC67 down: the note is struck 6 dB softer; lifted again, the next note is at full level.
    @Test(arguments: [sampler, synth])
    func softPedalDropsTheLevelBySixDecibels(channel: UInt8) throws {
        let normal = level(try play(channel))
        let soft = level(try play(channel, setup: [cc(channel, MIDIController.softPedal, 127)]))
        let lifted = level(try play(channel, setup: [cc(channel, MIDIController.softPedal, 127), cc(channel, MIDIController.softPedal, 0)]))
        #expect(abs(soft - normal - 20 * log10(ChannelControllerState.softPedalGain)) < 0.01, "\(soft - normal) dB")
        #expect(abs(soft - normal + 6) < 0.01)
        #expect(abs(lifted - normal) < 0.001)
    }

    /// Where the program has a filter, a soft-pedalled note is also darker: its cutoff half an
    /// octave lower, so an 880 Hz tone through a 1 kHz low-pass loses the filter's extra
    /// attenuation on top of the 6 dB.
    @Test func softPedalLowersTheSamplerFilterCutoff() throws {
        var layer = SamplerLayer()
        layer.filter = SamplerFilterSettings(isEnabled: true, cutoffHz: 1000, resonanceDecibels: 0)
        let program = SamplerProgram.single(.sineCycle(frequencyHz: 440, frames: 2048), rootKey: 69, layer: layer)
        program.buildAllLevels()
        func render(soft: Bool) throws -> [Float] {
            let rig = try EngineRig(content: EngineContent(samplerProgram: program))
            return rig.render(frames: 24000, events: [cc(0, MIDIController.reverbSend, 0), cc(0, MIDIController.softPedal, soft ? 127 : 0),
                                                      (0, .noteOn(channel: 0, note: 81, velocity: 100))]).left
        }
        func response(_ cents: Double) -> Double {
            BiquadCoefficients.design(.lowPass, cutoffHz: 1000 * pow(2, cents / 1200), resonanceDecibels: 0, sampleRate: rate)
                .magnitude(atHz: 880, sampleRate: rate)
        }
        let change = level(try render(soft: true)) - level(try render(soft: false))
        let expected = 20 * log10(ChannelControllerState.softPedalGain * response(SamplerInstrument.softPedalCutoffCents) / response(0))
        #expect(expected < -8, "the filter adds to the level drop")
        #expect(abs(change - expected) < 0.05, "\(change) dB, expected \(expected)")
    }

    /// CC121 resets the soft pedal but keeps the sends and the RPN tuning (RP-015).
    @Test func resetAllControllersKeepsSendsAndTuning() {
        var state = ChannelControllerState()
        _ = state.apply(controller: MIDIController.reverbSend, value: 90)
        _ = state.apply(controller: MIDIController.chorusSend, value: 30)
        _ = state.apply(controller: MIDIController.softPedal, value: 127)
        for (c, v) in [(101, 0), (100, 2), (6, 70)] as [(UInt8, UInt8)] { _ = state.apply(controller: c, value: v) }
        _ = state.apply(controller: MIDIController.resetAllControllers, value: 0)
        #expect(state.reverbSend == 90 && state.chorusSend == 30 && state.coarseTuningData == 70)
        #expect(!state.softPedalDown)
        #expect(ChannelControllerState().reverbSend == 40 && ChannelControllerState().chorusSend == 0)
    }
}
