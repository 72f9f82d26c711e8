import AudioTestSupport
import DSP
import Foundation
import Testing

@Suite struct ReverbTests {
    /// The brief's bound on the decay time; Jot's filters set it exactly per line, so the
    /// measured error is the fit's, a few percent at most.
    let rt60Tolerance = 0.10

    func impulseResponse(_ settings: ReverbSettings, sampleRate: Double, seconds: Double, block: Int = 64)
        -> (left: [Float], right: [Float]) {
        let reverb = FeedbackDelayReverb(sampleRate: sampleRate, maxFrames: 256, settings: settings)
        let x = SendEffectHarness.impulse(frames: Int(seconds * sampleRate))
        return SendEffectHarness.run(reverb, left: x, right: x, block: block)
    }

    @Test(arguments: [44_100.0, 96_000.0], [0.5, 1.5, 3.0])
    func decayTimeMatchesItsSetting(sampleRate: Double, decay: Double) {
        let settings = ReverbSettings(decaySeconds: decay, highFrequencyDecayRatio: 1, preDelaySeconds: 0)
        let ir = impulseResponse(settings, sampleRate: sampleRate, seconds: 1.4 * decay + 0.5)
        for channel in [ir.left, ir.right] {
            let t30 = Measure.schroederRT60(channel, sampleRate: sampleRate, from: -5, to: -35)
            let t20 = Measure.schroederRT60(channel, sampleRate: sampleRate, from: -5, to: -25)
            #expect(abs(t30 / decay - 1) < rt60Tolerance, "T30 \(t30) s for a \(decay) s setting at \(sampleRate) Hz")
            #expect(abs(t20 / decay - 1) < rt60Tolerance, "T20 \(t20) s for a \(decay) s setting at \(sampleRate) Hz")
        }
    }

    /// With damping the decay time depends on frequency as set: the low band decays in
    /// `decaySeconds`, the band at `dampingHz` in `ratio × decaySeconds`.
    @Test func highFrequenciesDecayFasterByTheSetRatio() {
        let rate = 48_000.0, decay = 2.0, ratio = 0.5, dampingHz = 4000.0
        let settings = ReverbSettings(decaySeconds: decay, highFrequencyDecayRatio: ratio, dampingHz: dampingHz, preDelaySeconds: 0)
        let ir = impulseResponse(settings, sampleRate: rate, seconds: 3.5).left
        // Narrow bands (Q 16): the decay time falls steeply with frequency above the damping
        // corner, and a wide band's EDC would be dominated by its slower-decaying lower edge.
        let low = SendEffectHarness.filter(ir, .design(.bandPass, cutoffHz: 250, q: 16, sampleRate: rate))
        let high = SendEffectHarness.filter(ir, .design(.bandPass, cutoffHz: dampingHz, q: 16, sampleRate: rate))
        let lowT30 = Measure.schroederRT60(low, sampleRate: rate)
        let highT30 = Measure.schroederRT60(high, sampleRate: rate)
        #expect(abs(lowT30 / decay - 1) < rt60Tolerance, "250 Hz band: \(lowT30) s")
        #expect(abs(highT30 / (ratio * decay) - 1) < rt60Tolerance, "\(dampingHz) Hz band: \(highT30) s")
    }

    @Test func preDelayHoldsTheOnsetBack() {
        let rate = 48_000.0
        for preDelay in [0.0, 0.03, 0.1] {
            let ir = impulseResponse(ReverbSettings(preDelaySeconds: preDelay, diffusion: 0), sampleRate: rate, seconds: 0.5).left
            // Without diffusion the all-passes are plain delays (4.771 + 3.595 + 12.73 + 9.307 ms on
            // the left, 1460 samples), then the shortest line (43.1 ms at size 1) gives the first echo.
            let onset = Measure.onset(ir, threshold: 1e-6)!
            let expected = Int((preDelay + 0.0431) * rate) + 1460
            #expect(abs(onset - expected) <= 2, "pre-delay \(preDelay): onset at \(onset), expected \(expected)")
        }
    }

    /// Orthogonal output taps: the two channels of the tail are nearly uncorrelated even for a
    /// mono (identical L/R) input, which is what makes a send reverb sound wide.
    @Test func stereoTailIsDecorrelated() {
        let rate = 48_000.0
        let ir = impulseResponse(ReverbSettings(decaySeconds: 2), sampleRate: rate, seconds: 2)
        let tail = Int(0.1 * rate)..<Int(1.5 * rate)
        let rho = SendEffectHarness.correlation(ir.left[tail], ir.right[tail])
        #expect(abs(rho) < 0.2, "inter-channel correlation \(rho)")
        #expect(Measure.rms(ir.left[tail]) > 1e-3)  // and there is a tail to correlate
    }

    /// The tail's energy is documented as about decaySeconds/4.5 for a unit impulse on both inputs.
    @Test func tailEnergyFollowsTheDecayTime() {
        let rate = 48_000.0
        for decay in [1.0, 3.0] {
            let ir = impulseResponse(ReverbSettings(decaySeconds: decay, highFrequencyDecayRatio: 1), sampleRate: rate, seconds: 2 * decay)
            let energy = ir.left.reduce(0.0) { $0 + Double($1) * Double($1) }
            let expectedDecibels = 10 * log10(decay / 4.5)
            #expect(abs(10 * log10(energy) - expectedDecibels) < 1.5, "decay \(decay): \(10 * log10(energy)) dB")
        }
    }

    /// After a long silence the recirculating state is flushed to exact zero: no subnormals
    /// (which would cost ~100× per operation), no NaN, even at the longest decay.
    @Test func longSilenceEndsInExactZeroWithoutSubnormals() {
        let rate = 48_000.0
        for decay in [3.0, ReverbSettings.decayRange.upperBound] {
            let out = impulseResponse(ReverbSettings(decaySeconds: decay, highFrequencyDecayRatio: 1), sampleRate: rate, seconds: 60)
            #expect(out.left.allSatisfy { $0.isFinite && ($0 == 0 || abs($0) >= Float.leastNormalMagnitude) })
            #expect(out.right.allSatisfy { $0.isFinite && ($0 == 0 || abs($0) >= Float.leastNormalMagnitude) })
            #expect(Measure.peak(out.left) < 1 && Measure.peak(out.right) < 1)
            if decay == 3 {
                // −60 dB per 3 s: far below the flush level (−500 dB) after 40 s.
                #expect(out.left.suffix(Int(10 * rate)).allSatisfy { $0 == 0 })
            }
        }
    }

    /// `tailSeconds` is what an idle skip relies on: after it the tail is below −120 dB of its peak.
    @Test(arguments: [0.3, 2.0, 8.0])
    func tailSecondsCoversTheAudibleTail(decay: Double) {
        let rate = 48_000.0
        let settings = ReverbSettings(decaySeconds: decay, highFrequencyDecayRatio: 1, preDelaySeconds: 0.1)
        let tail = FeedbackDelayReverb(sampleRate: rate, maxFrames: 64, settings: settings).tailSeconds
        let ir = impulseResponse(settings, sampleRate: rate, seconds: tail + 0.5).left
        let after = Measure.peak(ir[Int(tail * rate)...]), peak = Measure.peak(ir)
        #expect(Measure.decibels(after / peak) < -120, "decay \(decay): \(Measure.decibels(after / peak)) dB after \(tail) s")
        #expect(tail < 2 * decay + 0.5)  // and not much longer than needed
    }

    @Test func blockSizeAndResetDoNotChangeTheOutput() {
        let rate = 48_000.0
        let x = SendEffectHarness.impulse(frames: 20_000)
        let reverb = FeedbackDelayReverb(sampleRate: rate, maxFrames: 256)
        let reference = SendEffectHarness.run(reverb, left: x, right: x, block: 64)
        for block in [1, 3, 100, 256] {
            reverb.reset()
            let again = SendEffectHarness.run(reverb, left: x, right: x, block: block)
            #expect(again.left == reference.left && again.right == reference.right, "block \(block)")
        }
    }

    /// Each parameter swept over a second while a sine plays through the reverb: no step above
    /// −60 dBFS (third difference < 0.001), with the output well above silence.
    @Test(arguments: ["decay", "damping ratio", "damping Hz", "pre-delay", "size", "diffusion", "level"])
    func parameterSweepsAreClickFree(parameter: String) {
        let rate = 48_000.0
        let reverb = FeedbackDelayReverb(sampleRate: rate, maxFrames: 64)
        SendEffectHarness.expectClickFreeSweep(reverb, sampleRate: rate, settle: Int(1.5 * rate), sweep: Int(rate), amplitude: 0.25,
                                               floorRMS: 0.01, label: parameter) { t in
            var s = ReverbSettings()
            switch parameter {
            case "decay": s.decaySeconds = 0.5 + 4.5 * t
            case "damping ratio": s.highFrequencyDecayRatio = 1 - 0.9 * t
            case "damping Hz": s.dampingHz = 1000 + 11000 * t
            case "pre-delay": s.preDelaySeconds = 0.1 * t
            case "size": s.size = 0.5 + 1.5 * t
            case "diffusion": s.diffusion = t
            default: s.levelDecibels = -20 * t
            }
            reverb.apply(s)
        }
    }

    /// A NaN on the send never reaches the output: that block is dropped and the network starts
    /// clean instead of ringing NaN forever.
    @Test func aNaNOnTheSendDoesNotRecirculate() {
        SendEffectHarness.expectBadSampleIsDropped(FeedbackDelayReverb(sampleRate: 48_000, maxFrames: 64), bad: .nan, floorRMS: 0.01)
    }

    @Test func outOfRangeSettingsAreClampedNotTrusted() {
        let reverb = FeedbackDelayReverb(sampleRate: 48_000, maxFrames: 64)
        reverb.apply(ReverbSettings(decaySeconds: .nan, highFrequencyDecayRatio: 7, dampingHz: -1, preDelaySeconds: 99, size: 0, diffusion: 3))
        #expect(reverb.settings.decaySeconds == ReverbSettings.decayRange.lowerBound)
        #expect(reverb.settings.preDelaySeconds == ReverbSettings.preDelayRange.upperBound)
        let x = SendEffectHarness.impulse(frames: 48_000)
        let out = SendEffectHarness.run(reverb, left: x, right: x)
        #expect(out.left.allSatisfy(\.isFinite) && Measure.peak(out.left) < 1)
    }
}
