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

    @Test func levelMeterReadsASineAtMinus3dBRMS() {
        var meter = LevelMeter(sampleRate: 48000)
        let x = (0..<144_000).map { Float(sin(2 * Double.pi * 1000 * Double($0) / 48000)) }
        x.withUnsafeBufferPointer { meter.process($0.baseAddress!, frames: $0.count) }
        #expect(abs(meter.peakDecibels) < 0.01)
        #expect(abs(meter.rmsDecibels + 3.01) < 0.1)
    }
}
