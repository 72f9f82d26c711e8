import AudioTestSupport
import DSP
import Foundation
import Testing

@Suite struct TuningTests {
    @Test func a4At442GivesExactly442Hz() {
        let tuning = MasterTuning(a4Hz: 442)
        #expect(abs(Measure.cents(tuning.frequency(ofNote: 69), relativeTo: 442)) < 0.1)
        // Every other note moves by the same ratio (7.85 cents).
        let c4 = tuning.frequency(ofNote: 60)
        #expect(abs(Measure.cents(c4, relativeTo: Measure.noteFrequency(60)) - 1200 * log2(442.0 / 440)) < 1e-9)
        #expect(abs(MasterTuning().frequency(ofNote: 69) - 440) < 1e-12)
    }

    @Test func tuningRPNsDecodeAsTheMIDISpecDefinesThem() {
        #expect(MasterTuning.fineTuningCents(dataValue: 8192) == 0)
        #expect(MasterTuning.fineTuningCents(dataValue: 0) == -100)
        #expect(abs(MasterTuning.fineTuningCents(dataValue: 16383) - 99.988) < 0.001)
        #expect(MasterTuning.coarseTuningSemitones(dataMSB: 64) == 0)
        #expect(MasterTuning.coarseTuningSemitones(dataMSB: 76) == 12)
        #expect(MasterTuning.coarseTuningSemitones(dataMSB: 0) == -64)
        let tuned = MasterTuning(a4Hz: 440, fineCents: MasterTuning.fineTuningCents(dataValue: 8192 + 4096),
                                 coarseSemitones: MasterTuning.coarseTuningSemitones(dataMSB: 65))
        #expect(abs(Measure.cents(tuned.frequency(ofNote: 69), relativeTo: 440) - 150) < 1e-9)
    }

    @Test func velocityCurvesKeepTheEndsAndBendTheMiddle() {
        for curve in [VelocityCurve.linear, .soft, .hard, .gamma(1.7), .gamma(.nan)] {
            #expect(curve.apply(0) == 0)
            #expect(curve.apply(127) == 127)
            #expect(curve.apply(1) >= 1)
            let mapped = (1...127).map { curve.apply(UInt8($0)) }
            #expect(zip(mapped, mapped.dropFirst()).allSatisfy { $0 <= $1 }, "\(curve) is not monotonic")
        }
        #expect(VelocityCurve.linear.apply(64) == 64)
        #expect(VelocityCurve.soft.apply(64) == 90)  // 127·√(64/127) = 90.2
        #expect(VelocityCurve.hard.apply(64) == 32)  // 127·(64/127)² = 32.3
        #expect(VelocityCurve.gamma(1.7).apply(100) == 85)  // 127·(100/127)^1.7 = 84.9
    }
}
