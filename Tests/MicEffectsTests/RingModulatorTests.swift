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
