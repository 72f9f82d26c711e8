import AudioTestSupport
import Testing
import MicEffects

@Suite struct MovingAverageEffectTests {
    let fs = ChainHarness.sampleRate

    @Test(arguments: [3, 8, 37, 101])
    func nullsAtMultiplesOfSampleRateOverLength(points: Int) {
        let chain = ChainHarness.chain(.average) { $0.setAveragePoints(points) }
        for k in 1...2 {
            let f = Double(k) * fs / Double(points)
            guard f < fs / 2 else { continue }
            let input = Measure.sine(frequency: f, sampleRate: fs, count: 20_000)
            chain.reset()
            let out = ChainHarness.run(chain, left: input).left[1_000...]
            let rejection = Measure.decibels(Measure.rms(out) / Measure.rms(input[1_000...]))
            #expect(rejection < -60, "\(points) points, \(f) Hz: \(rejection) dB")
        }
    }

    @Test func passesDCAtUnityGain() {
        let chain = ChainHarness.chain(.average) { $0.setAveragePoints(50) }
        let out = ChainHarness.run(chain, left: [Float](repeating: 0.25, count: 10_000)).left
        #expect(abs(out[9_999] - 0.25) < 1e-6)
    }

    @Test func lengthSweepHasNoSteps() {
        let input = Measure.sine(frequency: 80, sampleRate: fs, count: 96_000)
        let chain = ChainHarness.chain(.average) { $0.setAveragePoints(3) }
        let out = ChainHarness.run(chain, left: input) { start in
            chain.setAveragePoints(3 + 98 * start / 96_000)
        }.left
        // From 10 ms on: the test sine's own onset at frame 0 is a corner.
        Measure.expectNoClick(out[480...])
    }
}
