import AudioTestSupport
import DSP
import Foundation
import Testing

@Suite struct ChorusTests {
    /// A 50 Hz probe: its 20 ms period exceeds every delay measured here, so the phase of the
    /// output names the delay without ambiguity, and a one-period average removes the 2f term.
    let probeHz = 50.0

    /// Two voices, spread 1: the left output is voice 0 alone, the right voice 1 alone, so each
    /// channel's delay track is one voice's LFO: base ± depth at the rate, the voices half a cycle apart.
    @Test(arguments: [(48_000.0, 0.8, 3.0, 10.0), (44_100.0, 3.0, 1.5, 7.0), (96_000.0, 0.3, 5.0, 12.0)])
    func modulationDepthRateAndBaseAreMeasuredOnTheOutput(sampleRate: Double, rate: Double, depth: Double, base: Double) {
        let settings = ChorusSettings(rateHz: rate, depthMilliseconds: depth, baseDelayMilliseconds: base, spread: 1)
        let chorus = StereoChorus(sampleRate: sampleRate, maxFrames: 64, voices: 2, settings: settings)
        let seconds = max(4, 5 / rate) + 0.1
        let x = Measure.sine(frequency: probeHz, sampleRate: sampleRate, count: Int(seconds * sampleRate), amplitude: 0.5)
        let out = SendEffectHarness.run(chorus, left: x, right: x)
        let hop = 16
        let skip = Int(0.05 * sampleRate) / hop  // the line fills during the first base delay
        let left = Array(Measure.delayTrack(out.left, probeHz: probeHz, sampleRate: sampleRate, hop: hop).dropFirst(skip))
        let right = Array(Measure.delayTrack(out.right, probeHz: probeHz, sampleRate: sampleRate, hop: hop).dropFirst(skip))

        let (lo, hi) = (left.min()!, left.max()!)
        let measuredDepth = (hi - lo) / 2, measuredBase = (hi + lo) / 2
        let centred = left.map { Float($0 - measuredBase) }
        let measuredRate = Measure.zeroCrossingFrequency(centred, sampleRate: sampleRate / Double(hop))!
        // One probe period of averaging shrinks the swing by sinc(π·rate·20 ms): 0.6 % at 3 Hz.
        let averaging = sin(Double.pi * rate / probeHz) / (Double.pi * rate / probeHz)
        #expect(abs(measuredDepth / (depth * averaging) - 1) < 0.02, "depth \(measuredDepth) ms, set \(depth)")
        #expect(abs(measuredRate / rate - 1) < 0.01, "rate \(measuredRate) Hz, set \(rate)")
        #expect(abs(measuredBase - base) < 0.02, "base \(measuredBase) ms, set \(base)")
        // Voice 1 runs half a cycle behind voice 0: its delay mirrors the left one around the base.
        let mirrored = zip(left, right).map { abs($0 + $1 - 2 * base) }.max()!
        #expect(mirrored < 0.05 * depth, "voices not in antiphase: \(mirrored) ms")
    }

    @Test func zeroSpreadIsMonoAndFullSpreadIsNot() {
        let rate = 48_000.0
        let x = Measure.noise(count: 48_000, amplitude: 0.5)
        let mono = StereoChorus(sampleRate: rate, maxFrames: 64, voices: 3, settings: ChorusSettings(spread: 0))
        let a = SendEffectHarness.run(mono, left: x, right: x)
        let identical = a.left == a.right
        #expect(identical)
        let wide = StereoChorus(sampleRate: rate, maxFrames: 64, voices: 3, settings: ChorusSettings(spread: 1))
        let b = SendEffectHarness.run(wide, left: x, right: x)
        let rho = SendEffectHarness.correlation(b.left[4800...], b.right[4800...])
        #expect(rho < 0.9, "correlation at full spread \(rho)")
        // Equal-power panning of N voices at √(2/N): the wet level stays near the input's.
        #expect(abs(Measure.decibels(Measure.rms(b.left[4800...]) / Measure.rms(x))) < 3)
    }

    @Test(arguments: ["rate", "depth", "base", "spread", "level"])
    func parameterSweepsAreClickFree(parameter: String) {
        let rate = 48_000.0
        let chorus = StereoChorus(sampleRate: rate, maxFrames: 64, voices: 3)
        SendEffectHarness.expectClickFreeSweep(chorus, sampleRate: rate, settle: Int(0.5 * rate), sweep: Int(rate), amplitude: 0.5,
                                               floorRMS: 0.02, label: parameter) { t in
            var s = ChorusSettings()
            switch parameter {
            case "rate": s.rateHz = 0.1 + 4.9 * t
            case "depth": s.depthMilliseconds = 5 * t
            case "base": s.baseDelayMilliseconds = 5 + 20 * t
            case "spread": s.spread = 1 - t
            default: s.levelDecibels = -20 * t
            }
            chorus.apply(s)
        }
    }

    @Test func anInfinityOnTheSendNeverReachesTheOutput() {
        SendEffectHarness.expectBadSampleIsDropped(StereoChorus(sampleRate: 48_000, maxFrames: 64), bad: .infinity, floorRMS: 0.05)
    }

    @Test func blockSizeAndResetDoNotChangeTheOutput() {
        let x = Measure.noise(count: 20_000)
        let chorus = StereoChorus(sampleRate: 48_000, maxFrames: 256, voices: 4)
        let reference = SendEffectHarness.run(chorus, left: x, right: x, block: 64)
        for block in [1, 3, 100, 256] {
            chorus.reset()
            let again = SendEffectHarness.run(chorus, left: x, right: x, block: block)
            // The LFO is re-anchored per block from an exact phase: block size moves it by rounding only.
            let worst = zip(again.left, reference.left).map { abs($0 - $1) }.max()!
            #expect(worst < 1e-4, "block \(block): \(worst)")
        }
    }
}
