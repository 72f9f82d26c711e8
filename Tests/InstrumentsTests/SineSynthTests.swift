import Foundation
import AudioTestSupport
import DSP
import Instruments
import MIDI
import Testing

@Suite struct SineSynthTests {
    let rate = SynthRig.rate
    /// The limit for synth pitch.
    let pitchToleranceCents = 0.5
    /// −60 dBFS, measured as the third difference (see `Measure.maxDiscontinuity`).
    let clickThreshold = 0.001

    @Test(arguments: [21, 33, 45, 57, 69, 81, 93, 105])
    func pitchIsWithinHalfACentOfTheNote(note: Int) {
        let rig = SynthRig()
        let out = rig.render(seconds: 1.5, messages: [.noteOn(channel: 0, note: UInt8(note), velocity: 100)])
        let expected = Measure.noteFrequency(Double(note))
        let measured = Measure.frequency(out[24000...], sampleRate: rate, guess: expected)!
        #expect(abs(Measure.cents(measured, relativeTo: expected)) < pitchToleranceCents)
    }

    /// The phase wraps at 1 cycle (2π), so a long note keeps its pitch and never degrades.
    @Test func pitchHoldsAfterAMinuteOfSound() {
        let rig = SynthRig(blockFrames: 1024)
        // 880 Hz: high enough to wrap often, low enough for the third-difference click measure.
        let out = rig.render(seconds: 61, messages: [.noteOn(channel: 0, note: 81, velocity: 100)])
        let expected = Measure.noteFrequency(81)
        let measured = Measure.frequency(out[(60 * 48000)...], sampleRate: rate, guess: expected)!
        #expect(abs(Measure.cents(measured, relativeTo: expected)) < pitchToleranceCents)
        Measure.expectNoClick(out[(59 * 48000)...])
    }

    @Test func noteOnAndNoteOffDoNotClick() {
        let rig = SynthRig(envelope: EnvelopeSettings(attackSeconds: 0.001, decaySeconds: 0.05, sustainLevel: 1, releaseSeconds: 0.01))
        var out = rig.render(seconds: 0.5, messages: [.noteOn(channel: 0, note: 69, velocity: 127)])
        out += rig.render(seconds: 0.5, messages: [.noteOff(channel: 0, note: 69, velocity: 0)])
        #expect(Measure.peak(out) > 0.2)
        Measure.expectNoClick(out)
        #expect(Measure.peak(out[(24000 + 960)...]) < 1e-5, "silent after the 10 ms release")
    }

    @Test func releaseTimeIsExactToAMillisecond() {
        let rig = SynthRig(envelope: EnvelopeSettings(attackSeconds: 0.005, decaySeconds: 0.01, sustainLevel: 1, releaseSeconds: 0.25))
        _ = rig.render(seconds: 0.2, messages: [.noteOn(channel: 0, note: 81, velocity: 127)])
        let tail = rig.render(seconds: 0.5, messages: [.noteOff(channel: 0, note: 81, velocity: 0)])
        let last = tail.lastIndex { abs($0) > 1e-4 }!
        #expect(abs(Double(last) / rate - 0.25) < 0.001)
    }

    @Test func stealingTwiceThePolyphonyInOneBlockDoesNotClick() {
        let rig = SynthRig(voices: 8)
        var out = rig.render(seconds: 0.3, messages: (0..<8).map { .noteOn(channel: 0, note: UInt8(48 + $0), velocity: 100) })
        out += rig.render(seconds: 0.3, messages: (0..<16).map { .noteOn(channel: 0, note: UInt8(60 + $0), velocity: 100) })
        #expect(rig.synth.activeVoiceCount == 8, "stolen voices have finished their fades")
        Measure.expectNoClick(out)
    }

    @Test func velocityFollowsTheConcaveCurve() {
        func level(_ v: UInt8) -> Double {
            let out = SynthRig().render(seconds: 0.5, messages: [.noteOn(channel: 0, note: 69, velocity: v)])
            return Measure.amplitude(out[12000...], at: 440, sampleRate: rate)
        }
        let full = level(127)
        for v in [64, 32] as [UInt8] {
            let expected = 40 * log10(Double(v) / 127)
            #expect(abs(Measure.decibels(level(v) / full) - expected) < 0.5)
        }
    }

    @Test func pitchBendMovesByTheBendRange() {
        let rig = SynthRig()
        rig.synth.pitchBendRangeSemitones = 2
        let out = rig.render(seconds: 1, messages: [.pitchBend(channel: 0, value: 8191), .noteOn(channel: 0, note: 69, velocity: 100)])
        let measured = Measure.frequency(out[12000...], sampleRate: rate, guess: 493.9)!
        #expect(abs(Measure.cents(measured, relativeTo: 440) - 200 * 8191 / 8192) < pitchToleranceCents)
    }

    @Test func sustainPedalHoldsReleasedNotesUntilLifted() {
        let rig = SynthRig(envelope: EnvelopeSettings(attackSeconds: 0.005, decaySeconds: 0.01, sustainLevel: 1, releaseSeconds: 0.05))
        _ = rig.render(seconds: 0.1, messages: [.controlChange(channel: 0, controller: 64, value: 127), .noteOn(channel: 0, note: 60, velocity: 100)])
        let held = rig.render(seconds: 0.3, messages: [.noteOff(channel: 0, note: 60, velocity: 0)])
        #expect(Measure.rms(held[9600...]) > 0.05)
        let lifted = rig.render(seconds: 0.2, messages: [.controlChange(channel: 0, controller: 64, value: 0)])
        #expect(Measure.peak(lifted[4800...]) < 1e-5)
    }

    @Test func allNotesOffAndAllSoundOffSilence() {
        for cc in [MIDIController.allNotesOff, MIDIController.allSoundOff] {
            let rig = SynthRig()
            _ = rig.render(seconds: 0.1, messages: [.noteOn(channel: 0, note: 60, velocity: 100), .noteOn(channel: 0, note: 64, velocity: 100)])
            let after = rig.render(seconds: 0.5, messages: [.controlChange(channel: 0, controller: cc, value: 0)])
            #expect(Measure.peak(after[(Int(0.35 * rate))...]) < 1e-5)
            #expect(rig.synth.isSilent)
        }
    }

    @Test func reStruckKeyDoesNotStackVoices() {
        let rig = SynthRig()
        _ = rig.render(seconds: 0.1, messages: [.noteOn(channel: 0, note: 60, velocity: 100)])
        _ = rig.render(seconds: 0.1, messages: [.noteOn(channel: 0, note: 60, velocity: 100)])
        #expect(rig.synth.activeVoiceCount == 1)
    }
}
