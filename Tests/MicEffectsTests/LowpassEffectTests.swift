import Foundation
import AudioTestSupport
import DSP
import Testing
import MicEffects

@Suite struct LowpassEffectTests {
    let fs = ChainHarness.sampleRate
    let taps = 101

    /// The chain's low-pass kernel, read back as its impulse response.
    func measuredKernel(cutoffHz: Double) -> [Float] {
        let chain = ChainHarness.chain(.lowpass) { $0.setLowpassCutoffHz(cutoffHz) }
        return Array(ChainHarness.run(chain, left: ChainHarness.impulse(count: 256, at: 0)).left[0..<taps])
    }

    /// Frequency where the response of `kernel` falls to ½ (−6.02 dB), by bisection.
    func halfGainHz(_ kernel: [Float]) -> Double {
        var lo = 0.0, hi = fs / 4
        for _ in 0..<50 {
            let mid = (lo + hi) / 2
            if WindowedSinc.magnitude(of: kernel, atHz: mid, sampleRate: fs) > 0.5 { lo = mid } else { hi = mid }
        }
        return lo
    }

    @Test(arguments: [500.0, 707.0, 1000.0, 1500.0, 2000.0, 3000.0, 4000.0])
    func halfGainPointIsAtTheCutoff(cutoffHz: Double) {
        let kernel = measuredKernel(cutoffHz: cutoffHz)
        let toleranceRatio = 0.02  // brief: −6 dB point within 2 % of the cutoff
        #expect(abs(halfGainHz(kernel) / cutoffHz - 1) < toleranceRatio, "\(halfGainHz(kernel))")
        #expect(abs(WindowedSinc.magnitude(of: kernel, atHz: 0, sampleRate: fs) - 1) < 1e-5)
    }

    /// Stop band: from the −6 dB point plus half the Kaiser transition width (≈ 0.82 kHz at 48 kHz,
    /// `WindowedSinc.transitionWidthHz`), i.e. the textbook stop-band edge, up to Nyquist.
    @Test(arguments: [500.0, 1000.0, 2000.0, 4000.0])
    func stopBandIsFiftyDecibelsDown(cutoffHz: Double) {
        let kernel = measuredKernel(cutoffHz: cutoffHz)
        let edge = cutoffHz + WindowedSinc.transitionWidthHz(taps: taps, sampleRate: fs) / 2
        var worst = 0.0
        var f = edge
        while f < fs / 2 {
            worst = max(worst, WindowedSinc.magnitude(of: kernel, atHz: f, sampleRate: fs))
            f += 5
        }
        #expect(Measure.decibels(worst) < -50, "worst stop-band gain \(Measure.decibels(worst)) dB")
    }

    /// 101 taps cannot make a 20 Hz low-pass: below the floor (≈ 445 Hz) the kernel is the bare Kaiser window.
    @Test func lowestCutoffsBottomOutAtTheWindowResponse() {
        let floor = WindowedSinc.floorHz(sampleRate: fs, taps: taps)
        #expect(floor > 420 && floor < 470)
        let at20 = halfGainHz(measuredKernel(cutoffHz: 20))
        #expect(abs(at20 / floor - 1) < 0.01)
    }

    @Test func cutoffSweepHasNoSteps() {
        let input = Measure.sine(frequency: 100, sampleRate: fs, count: 96_000)
        let chain = ChainHarness.chain(.lowpass) { $0.setLowpassCutoffHz(4000) }
        let out = ChainHarness.run(chain, left: input) { start in
            // Down and up again, a new target every block, plus a few big jumps.
            let phase = Double(start) / 96_000
            chain.setLowpassCutoffHz(start % 24_000 == 0 ? 20 : 4000 * pow(0.005, sin(Double.pi * phase)))
        }.left
        Measure.expectNoClick(out)
    }
}
