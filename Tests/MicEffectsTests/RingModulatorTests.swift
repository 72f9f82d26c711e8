import AudioTestSupport
import Testing
import MicEffects

@Suite struct RingModulatorTests {
    let fs = ChainHarness.sampleRate

    @Test(arguments: [(1000.0, 300.0), (440.0, 1000.0), (2500.0, 4000.0)])
    func sidebandsAppearAndCarrierAndInputVanish(tone: Double, carrier: Double) {
        let chain = ChainHarness.chain(.ringmod) { $0.setRingFrequencyHz(carrier) }
        let input = Measure.sine(frequency: tone, sampleRate: fs, count: 48_000)
        let out = ChainHarness.run(chain, left: input).left[8_000...]
        let lower = Measure.amplitude(out, at: abs(tone - carrier), sampleRate: fs)
        let upper = Measure.amplitude(out, at: tone + carrier, sampleRate: fs)
        // cos(a)·cos(b) = ½cos(a−b) + ½cos(a+b): each sideband is half the input amplitude.
        #expect(abs(lower - 0.25) < 0.005)
        #expect(abs(upper - 0.25) < 0.005)
        let suppressionDecibels = 60.0  // brief: carrier > 60 dB below the sidebands
        for leak in [carrier, tone] {
            let a = Measure.amplitude(out, at: leak, sampleRate: fs)
            #expect(Measure.decibels(a) < Measure.decibels(0.25) - suppressionDecibels, "leak at \(leak) Hz: \(a)")
        }
    }

    @Test func leftAndRightStayApart() {
        let chain = ChainHarness.chain(.ringmod) { $0.setRingFrequencyHz(500) }
        let left = Measure.sine(frequency: 1000, sampleRate: fs, count: 24_000)
        let right = [Float](repeating: 0, count: 24_000)
        let out = ChainHarness.run(chain, left: left, right: right)
        #expect(Measure.peak(out.right) == 0)
        #expect(Measure.peak(out.left) > 0.3)  // max of ½·sin 2θ·cos θ is ≈ 0.385
    }
}

@Suite struct RingModulatorSweepTests {
    let fs = ChainHarness.sampleRate

    /// The ring modulator's output is itself high-frequency (sidebands up to fc + f), so its third
    /// difference is compared with the same tone modulated at a fixed carrier at the top of the
    /// sweep: a click would add 0.001 (−60 dBFS) on top.
    @Test func carrierSweepAddsNoSteps() {
        let input = Measure.sine(frequency: 100, sampleRate: fs, count: 96_000)
        let topHz = 2_000.0
        let steady = ChainHarness.chain(.ringmod) { $0.setRingFrequencyHz(topHz) }
        let reference = Measure.maxDiscontinuity(ChainHarness.run(steady, left: input).left[4_800...])
        let swept = ChainHarness.chain(.ringmod) { $0.setRingFrequencyHz(0) }
        let out = ChainHarness.run(swept, left: input) { start in
            swept.setRingFrequencyHz(topHz * Double(start) / 96_000)
        }.left
        Measure.expectNoClick(out[4_800...], maxStep: reference + 0.001)
    }
}
