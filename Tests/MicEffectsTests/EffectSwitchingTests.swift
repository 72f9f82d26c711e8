import Foundation
import AudioTestSupport
import Testing
import MicEffects

@Suite struct EffectSwitchingTests {
    let fs = ChainHarness.sampleRate

    /// Every effect to every other, on a low sine: the crossfade leaves no step above −60 dBFS.
    @Test func switchingBetweenEffectsDoesNotClick() {
        let kinds = MicEffectKind.allCases
        let segment = 4_800  // 100 ms per effect
        var order: [MicEffectKind] = []
        for a in kinds { for b in kinds where a != b { order += [a, b] } }
        let input = Measure.sine(frequency: 90, sampleRate: fs, count: segment * order.count)
        let chain = MicChain(sampleRate: fs, maxFrames: 64)
        for kind in kinds { chain.prepare(kind) }
        chain.setRingFrequencyHz(30)
        chain.setDelaySeconds(0.05)
        chain.setDelayMix(0.5)
        chain.setLowpassCutoffHz(1000)
        chain.setAveragePoints(20)
        chain.setPitchShiftSemitones(0)
        chain.setMix(1)
        let out = ChainHarness.run(chain, left: input) { start in
            chain.setEffect(order[start / segment])
        }.left
        Measure.expectNoClick(out)
    }

    /// An STFT effect selected before its FFT plans exist: the chain keeps playing what it was
    /// (no waiting), asks for it, and crossfades to it once the control thread has built it.
    @Test func effectSelectedBeforeItIsBuiltSwitchesInOnceReady() {
        let input = Measure.sine(frequency: 90, sampleRate: fs, count: 48_000)
        let chain = MicChain(sampleRate: fs, maxFrames: 64)
        chain.setMix(1)
        chain.setEffect(.fft)
        var built = false
        let out = ChainHarness.run(chain, left: input) { start in
            if start >= 4800 && !built {
                #expect(chain.currentEffect == .off)
                chain.prepareRequested()  // what the engine's control work does
                built = true
            }
        }.left
        #expect(built)
        #expect(chain.currentEffect == .fft)
        Measure.expectNoClick(out)
        // Dry before, the spectral pass (the input delayed by its latency) after: both at full level.
        #expect(Measure.rms(out[0..<4800]) > 0.3)
        #expect(Measure.rms(out[40_000...]) > 0.3)
    }

    @Test func mixSweepHasNoSteps() {
        let input = Measure.sine(frequency: 100, sampleRate: fs, count: 48_000)
        let chain = ChainHarness.chain(.delay) { $0.setDelaySeconds(0.003); $0.setDelayMix(1) }
        let out = ChainHarness.run(chain, left: input) { start in
            chain.setMix(0.5 - 0.5 * cos(2 * Double.pi * 2 * Double(start) / 48_000))
        }.left
        Measure.expectNoClick(out)
    }

    @Test func monoInputSumsChannels() {
        let chain = ChainHarness.chain(.off) { $0.setMonoInput(true) }
        let out = ChainHarness.run(chain, left: [Float](repeating: 0.5, count: 64), right: [Float](repeating: 0, count: 64))
        #expect(out.left == out.right)
        #expect(out.left[10] == 0.25)
    }

    @Test func metersReadTheInputLevel() {
        let chain = ChainHarness.chain(.off)
        let input = Measure.sine(frequency: 440, sampleRate: fs, count: 48_000, amplitude: 0.5)
        _ = ChainHarness.run(chain, left: input, right: input.map { $0 * 0.1 })
        let peakLeft = Double(chain.readouts.inputPeakDecibels.left.value)
        let rmsRight = Double(chain.readouts.inputRMSDecibels.right.value)
        #expect(abs(peakLeft - Measure.decibels(0.5)) < 0.1)
        #expect(abs(rmsRight - Measure.decibels(0.05 / 2.0.squareRoot())) < 0.2)
    }
}
