import Foundation
import DSP
import Testing

@Suite struct WindowedSincTests {
    let fs = 48_000.0

    @Test(arguments: [600.0, 1000.0, 2500.0, 4000.0, 8000.0])
    func calibratedDesignHasHalfGainAtTheCutoffAndUnityDC(cutoffHz: Double) {
        let taps = WindowedSinc.lowPass(halfGainHz: cutoffHz, sampleRate: fs, taps: 101)
        #expect(taps.count == 101)
        #expect(abs(WindowedSinc.magnitude(of: taps, atHz: cutoffHz, sampleRate: fs) - 0.5) < 1e-6)
        #expect(abs(WindowedSinc.magnitude(of: taps, atHz: 0, sampleRate: fs) - 1) < 1e-6)
        // Linear phase: symmetric taps.
        #expect(zip(taps, taps.reversed()).allSatisfy { abs($0 - $1) < 1e-9 })
    }

    @Test func kaiserStopBandMatchesItsFormula() {
        let taps = WindowedSinc.lowPass(halfGainHz: 2_000, sampleRate: fs, taps: 101)
        let edge = 2_000 + WindowedSinc.transitionWidthHz(taps: 101, sampleRate: fs) / 2
        var worst = 0.0
        for f in stride(from: edge, to: fs / 2, by: 10) {
            worst = max(worst, WindowedSinc.magnitude(of: taps, atHz: f, sampleRate: fs))
        }
        #expect(20 * log10(worst) < -50)
    }

    @Test func firFilterAppliesTheKernel() {
        let taps: [Float] = [0.25, 0.5, 0.25]
        let fir = FIRFilter(tapCount: 3)
        let out = taps.withUnsafeBufferPointer { h in
            [1, 0, 0, 0, 2].map { fir.process(Float($0), taps: h.baseAddress!) }
        }
        #expect(out == [0.25, 0.5, 0.25, 0, 0.5])
    }
}

@Suite struct RingModulatorKernelTests {
    @Test func zeroHertzCarrierPassesTheInput() {
        var ring = RingModulator(sampleRate: 48_000, carrierHz: 0)
        let l = UnsafeMutablePointer<Float>.allocate(capacity: 64), r = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        defer { l.deallocate(); r.deallocate() }
        l.initialize(repeating: 0.5, count: 64)
        r.initialize(repeating: -0.25, count: 64)
        ring.process(StereoBlock(left: l, right: r, frames: 64))
        #expect(l[63] == 0.5 && r[63] == -0.25)
    }
}
