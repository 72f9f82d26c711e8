import Foundation
import AudioTestSupport
import Testing
import MicEffects

@Suite struct DelayEffectTests {
    let fs = ChainHarness.sampleRate

    @Test(arguments: [0.001, 0.0123456, 0.25, 1.0, 2.0])
    func impulseReturnsExactlyAfterTheDelay(seconds: Double) {
        let chain = ChainHarness.chain(.delay) {
            $0.setDelaySeconds(seconds)
            $0.setDelayFeedback(0)
            $0.setDelayMix(1)
        }
        let n = 1234
        let delayFrames = Int((seconds * fs).rounded())
        let input = ChainHarness.impulse(count: n + delayFrames + 500, at: n)
        let out = ChainHarness.run(chain, left: input).left
        #expect(out[n + delayFrames] == 1)
        // Nothing anywhere else: the echo is a single sample (integer read, no interpolation).
        var elsewhere = out
        elsewhere[n + delayFrames] = 0
        #expect(Measure.peak(elsewhere) == 0)
    }

    @Test func feedbackRepeatsWithDecayingGain() {
        let chain = ChainHarness.chain(.delay) {
            $0.setDelaySeconds(0.01)
            $0.setDelayFeedback(0.5)
            $0.setDelayMix(1)
        }
        // The impulse comes after the 20 ms input fade-in that follows a reset.
        let d = 480, n = 2_000
        let out = ChainHarness.run(chain, left: ChainHarness.impulse(count: n + 5 * d + 10, at: n)).left
        for k in 1...4 {
            #expect(abs(out[n + k * d] - Float(pow(0.5, Double(k - 1)))) < 1e-6)
        }
    }

    @Test func delayTimeSweepHasNoSteps() {
        let input = Measure.sine(frequency: 110, sampleRate: fs, count: 96_000)
        let chain = ChainHarness.chain(.delay) {
            $0.setDelaySeconds(0.1)
            $0.setDelayFeedback(0.6)
            $0.setDelayMix(0.5)
        }
        let out = ChainHarness.run(chain, left: input) { start in
            // A new delay time every block, 0.1 s → 1.5 s over the second.
            chain.setDelaySeconds(0.1 + 1.4 * Double(start) / 96_000)
            chain.setDelayFeedback(0.9 * Double(start) / 96_000)
        }.left
        Measure.expectNoClick(out)
    }
}
