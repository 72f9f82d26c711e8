import AudioTestSupport
import DSP
import Foundation
import Testing

@Suite struct LowFrequencyOscillatorTests {
    let rate = 48_000.0

    func render(_ settings: LowFrequencyOscillator.Settings, seconds: Double, seed: UInt32 = 7) -> [Float] {
        var lfo = LowFrequencyOscillator(sampleRate: rate, settings: settings, seed: seed)
        var out = [Float](repeating: 0, count: Int(seconds * rate))
        out.withUnsafeMutableBufferPointer { lfo.render(into: $0.baseAddress!, frames: $0.count) }
        return out
    }

    /// Each shape's frequency (from its rising crossings of its mean), peaks and duty measured on
    /// the output, at a rate that does not divide the sample rate evenly.
    @Test(arguments: LowFrequencyOscillator.Waveform.allCases.filter { $0 != .sampleAndHold && $0 != .randomInterpolated })
    func periodicShapesHaveTheirRateAndRange(waveform: LowFrequencyOscillator.Waveform) {
        let hz = 5.3
        let out = render(LowFrequencyOscillator.Settings(waveform: waveform, rateHz: hz), seconds: 10)
        // One rising zero crossing per cycle (the saw down's rising one is its jump: read it inverted).
        let measured = Measure.zeroCrossingFrequency(waveform == .sawDown ? out.map { -$0 } : out, sampleRate: rate)!
        #expect(abs(measured / hz - 1) < 1e-4, "\(waveform): \(measured) Hz")
        #expect(abs(Measure.peak(out) - 1) < 1e-3, "\(waveform): peak \(Measure.peak(out))")
        let positive = Double(out.filter { $0 > 0 }.count) / Double(out.count)
        #expect(abs(positive - 0.5) < 0.005, "\(waveform): positive \(100 * positive) % of the time")
    }

    /// The shapes against their formulas, sample by sample.
    @Test(arguments: LowFrequencyOscillator.Waveform.allCases.filter { $0 != .sampleAndHold && $0 != .randomInterpolated })
    func shapesFollowTheirFormulas(waveform: LowFrequencyOscillator.Waveform) {
        let hz = 3.0
        let out = render(LowFrequencyOscillator.Settings(waveform: waveform, rateHz: hz), seconds: 2)
        var worst = 0.0
        for (n, y) in out.enumerated() {
            let p = (hz * Double(n) / rate).truncatingRemainder(dividingBy: 1)
            let expected: Double = switch waveform {
            case .sine: sin(2 * Double.pi * p)
            case .triangle: p < 0.25 ? 4 * p : p < 0.75 ? 2 - 4 * p : 4 * p - 4
            case .square: p < 0.5 ? 1 : -1
            case .sawUp: 2 * p - 1
            case .sawDown: 1 - 2 * p
            case .sampleAndHold, .randomInterpolated: 0
            }
            // Near an edge, the accumulated phase may round to the other side of it.
            if waveform != .sine && waveform != .triangle && min(abs(p - 0.5), p, 1 - p) < 1e-9 { continue }
            worst = max(worst, abs(Double(y) - expected))
        }
        #expect(worst < 1e-5, "\(waveform): \(worst) from the formula")
    }

    /// Sample & hold: constant within a cycle, a new value at each cycle start, uniform in −1…1.
    @Test func sampleAndHoldHoldsForACycleAndSpreadsEvenly() {
        let hz = 8.0, period = Int(rate / hz)
        let out = render(LowFrequencyOscillator.Settings(waveform: .sampleAndHold, rateHz: hz), seconds: 125)
        var changes = 0
        for n in 1..<out.count where out[n] != out[n - 1] {
            changes += 1
            // At the cycle start, give or take the one frame the summed phase may round across.
            let offset = n % period
            #expect(offset <= 1 || offset == period - 1, "value changed inside a cycle at frame \(n)")
        }
        #expect(changes >= 990 && changes <= 1000)  // 1000 cycles; two equal draws in a row are possible, rarely
        let values = stride(from: period / 2, to: out.count, by: period).map { Double(out[$0]) }
        let mean = values.reduce(0, +) / Double(values.count)
        let meanSquare = values.reduce(0) { $0 + $1 * $1 } / Double(values.count)
        #expect(abs(mean) < 0.06 && abs(meanSquare - 1.0 / 3) < 0.04, "mean \(mean), mean square \(meanSquare) (uniform: 0, 1/3)")
        #expect(render(LowFrequencyOscillator.Settings(waveform: .sampleAndHold, rateHz: hz), seconds: 1) == render(LowFrequencyOscillator.Settings(waveform: .sampleAndHold, rateHz: hz), seconds: 1))
    }

    /// Delay: silent for exactly the delay, then the cycle starts at phase 0; fade-in: the depth
    /// rises linearly and reaches 1 after the fade time.
    @Test func delayAndFadeInShapeTheOnset() {
        let delay = 0.25, fade = 0.5
        let out = render(LowFrequencyOscillator.Settings(waveform: .square, rateHz: 4, delaySeconds: delay, fadeInSeconds: fade), seconds: 1.5)
        let delayFrames = Int(delay * rate), fadeFrames = Int(fade * rate)
        #expect(out[..<delayFrames].allSatisfy { $0 == 0 })
        #expect(out[delayFrames] > 0)  // square at phase 0: +, at depth ≈ 0
        for fraction in [0.25, 0.5, 0.75] {
            let n = delayFrames + Int(fraction * Double(fadeFrames))
            #expect(abs(Double(abs(out[n])) - fraction) < 1e-3, "depth \(abs(out[n])) at \(fraction) of the fade")
        }
        #expect(out[(delayFrames + fadeFrames + 10)...].allSatisfy { abs($0) == 1 })
    }

    /// A rate change mid-cycle keeps the phase: the sine goes on without a step.
    @Test func rateChangeKeepsThePhase() {
        var lfo = LowFrequencyOscillator(sampleRate: rate, settings: LowFrequencyOscillator.Settings(waveform: .sine, rateHz: 2))
        var out: [Float] = (0..<10_000).map { _ in lfo.next() }
        lfo.configure(LowFrequencyOscillator.Settings(waveform: .sine, rateHz: 7))
        out += (0..<10_000).map { _ in lfo.next() }
        let steps = zip(out, out.dropFirst()).map { abs($1 - $0) }
        #expect(steps.max()! < Float(2 * Double.pi * 7 / rate) * 1.01)
        #expect(Measure.peak(out) > 0.99)
    }

    /// Random interpolated: a straight line per cycle from one random value to the next, so it
    /// never steps (per-frame change ≤ 2 × rate / fs) and bends only at cycle starts.
    @Test func randomInterpolatedIsContinuousAndLinearWithinACycle() {
        let hz = 6.0, period = Int(rate / hz)
        let out = render(LowFrequencyOscillator.Settings(waveform: .randomInterpolated, rateHz: hz), seconds: 20)
        let steps = zip(out, out.dropFirst()).map { abs(Double($1) - Double($0)) }
        #expect(steps.max()! <= 2 * hz / rate * 1.001)
        for n in 2..<out.count where ![0, 1, 2, period - 1, period - 2].contains(n % period) {
            let bend = abs(Double(out[n]) - 2 * Double(out[n - 1]) + Double(out[n - 2]))
            #expect(bend < 1e-6, "bends at frame \(n) inside a cycle")
            if bend >= 1e-6 { break }
        }
        #expect(Measure.peak(out) > 0.9 && Measure.peak(out) <= 1)
    }

    /// `skip(frames:)` + `current` (how the sampler voice reads it once per chunk) lands where
    /// as many `next()` calls do, through the delay, the fade-in and random draws.
    @Test(arguments: LowFrequencyOscillator.Waveform.allCases)
    func skippingMatchesStepping(waveform: LowFrequencyOscillator.Waveform) {
        let settings = LowFrequencyOscillator.Settings(waveform: waveform, rateHz: 7, delaySeconds: 0.01, fadeInSeconds: 0.05)
        var stepped = LowFrequencyOscillator(sampleRate: rate, settings: settings)
        var skipped = LowFrequencyOscillator(sampleRate: rate, settings: settings)
        var worst: Float = 0
        for chunk in 0..<400 {
            let frames = 37 + chunk % 64
            for _ in 0..<frames { _ = stepped.next() }
            skipped.skip(frames: frames)
            worst = max(worst, abs(skipped.current - stepped.current))
        }
        #expect(worst < 1e-4)
    }
}
