import AudioTestSupport
import Foundation
import Spectral
import Testing
import MicEffects

@Suite struct PitchShiftTests {
    let fs = ChainHarness.sampleRate

    func shifted(_ x: [Float], semitones: Double) -> [Float] {
        let chain = ChainHarness.chain(.pitchshift) { $0.setPitchShiftSemitones(semitones) }
        return ChainHarness.run(chain, left: x).left
    }

    @Test(arguments: [7.0, -5.0, 12.0, -12.0, 0.0])
    func harmonicToneLandsWithinTwoCents(semitones: Double) {
        let f0 = 220.0
        let x = Measure.harmonicTone(f0, harmonics: 6, count: 72_000, sampleRate: fs)
        let out = Array(shifted(x, semitones: semitones)[12_000...])
        let expected = f0 * pow(2, semitones / 12)
        let toleranceCents = 2.0  // brief
        let measured = Measure.frequency(out, sampleRate: fs, guess: expected) ?? 0
        #expect(abs(Measure.cents(measured, relativeTo: expected)) < toleranceCents, "Measure: \(measured)")
        let track = PitchDetector.analyze(samples: out, sampleRate: fs, hop: 2_000).map(\.estimate)
        let median = track.map(\.frequencyHz).sorted()[track.count / 2]
        #expect(track.filter { !$0.voiced }.isEmpty)
        #expect(abs(Measure.cents(median, relativeTo: expected)) < toleranceCents, "detector: \(median)")
        // The partials keep their level: output RMS within 1.5 dB of the input's.
        #expect(abs(Measure.decibels(Measure.rms(out) / Measure.rms(x))) < 1.5)
    }

    @Test func shiftSweepHasNoSteps() {
        let x = Measure.sine(frequency: 150, sampleRate: fs, count: 96_000)
        let chain = ChainHarness.chain(.pitchshift) { $0.setPitchShiftSemitones(-12) }
        let out = ChainHarness.run(chain, left: x) { start in
            chain.setPitchShiftSemitones(-12 + 24 * Double(start) / 96_000)
        }.left
        Measure.expectNoClick(out[4_000...])
    }

    @Test func readoutReportsInputAndShiftedPitch() {
        let x = Measure.harmonicTone(196, harmonics: 4, count: 24_000, sampleRate: fs)
        let chain = ChainHarness.chain(.pitchshift) { $0.setPitchShiftSemitones(7) }
        _ = ChainHarness.run(chain, left: x)
        let pitch = chain.readouts.pitch.value
        #expect(pitch.voiced)
        #expect(abs(Measure.cents(pitch.frequencyHz, relativeTo: 196)) < 1)
        let shiftedHz = Double(chain.readouts.shiftedPitchHz.value)
        #expect(abs(Measure.cents(shiftedHz, relativeTo: 196 * pow(2, 7.0 / 12))) < 1)
    }
}

@Suite struct PitchShiftVibratoTests {
    let fs = ChainHarness.sampleRate

    /// A sine with ±60 cents of 5.5 Hz vibrato: its partial crosses FFT bins all the time, and
    /// the output peak's phase must carry across those crossings without a jump.
    @Test(arguments: [7.0, -5.0])
    func vibratoSurvivesWithoutPhaseJumps(semitones: Double) {
        var phase = 0.0
        let input: [Float] = (0..<96_000).map { n in
            let cents = 60 * sin(2 * Double.pi * 5.5 * Double(n) / fs)
            phase += 2 * Double.pi * 300 * pow(2, cents / 1200) / fs
            return Float(0.5 * sin(phase))
        }
        let chain = ChainHarness.chain(.pitchshift) { $0.setPitchShiftSemitones(semitones) }
        let out = ChainHarness.run(chain, left: input).left[4_800...]
        // A 0.5 sine at the highest shifted frequency has a third difference of ≈ 0.5·(2πf/fs)³.
        let topHz = 300 * pow(2, (60 + semitones * 100) / 1200)
        let smooth = 0.5 * pow(2 * Double.pi * topHz / fs, 3)
        Measure.expectNoClick(out, maxStep: smooth + 0.001)
        // The level stays steady: no cancellation dips between frames.
        let windows = stride(from: out.startIndex, to: out.endIndex - 960, by: 960).map { Measure.rms(out[$0..<$0 + 960]) }
        let steadiness = 0.75  // measured ≈ 0.81–0.89: the peak moves within its bin as it glides
        #expect((windows.min() ?? 0) > steadiness * (windows.max() ?? 1))
    }
}
