import Foundation
import DSP
import Testing

@Suite struct SmootherTests {
    @Test func reachesTheTargetLinearlyInTheRampTime() {
        var s = LinearSmoother(value: 0, sampleRate: 1000, rampSeconds: 0.010)
        s.setTarget(1)
        let values = (0..<12).map { _ in s.next() }
        #expect(abs(values[4] - 0.5) < 1e-6)
        #expect(values[9] == 1 && values[11] == 1)
        #expect(!s.isRamping)
    }

    /// The RMS average in its block form (eight interleaved recursions) is the frame-by-frame
    /// recursion ms += k·(x² − ms), whatever the block sizes: within Float rounding.
    @Test(arguments: [1, 7, 64, 256, 1_000])
    func levelMeterAverageIsTheFrameByFrameRecursion(block: Int) {
        let rate = 48_000.0
        let k = Float(1 - exp(-1 / (0.3 * rate)))
        let x: [Float] = (0..<24_000).map { n in
            let envelope = 0.2 + 0.8 * Double(n % 977) / 977
            return Float(sin(Double(n) * 0.37) * envelope)
        }
        var meter = LevelMeter(sampleRate: rate)
        var start = 0
        x.withUnsafeBufferPointer { samples in
            while start < x.count {
                let n = min(block, x.count - start)
                meter.process(samples.baseAddress! + start, frames: n)
                start += n
            }
        }
        var reference: Double = 0
        for v in x { reference += Double(k) * (Double(v) * Double(v) - reference) }
        #expect(abs(Double(meter.meanSquare) / reference - 1) < 1e-4, "\(meter.meanSquare) against \(reference)")
    }

    @Test func levelMeterReadsASineAtMinus3dBRMS() {
        var meter = LevelMeter(sampleRate: 48000)
        let x = (0..<144_000).map { Float(sin(2 * Double.pi * 1000 * Double($0) / 48000)) }
        x.withUnsafeBufferPointer { meter.process($0.baseAddress!, frames: $0.count) }
        #expect(abs(meter.peakDecibels) < 0.01)
        #expect(abs(meter.rmsDecibels + 3.01) < 0.1)
    }
}
