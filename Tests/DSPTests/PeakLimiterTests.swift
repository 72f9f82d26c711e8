import AudioTestSupport
import DSP
import Foundation
import Testing

/// The master peak limiter, measured: transparency below the ceiling, the ceiling held 12 dB over
/// it without a step, the release time, and the stereo link.
@Suite struct PeakLimiterTests {
    let rate = 48_000.0
    let ceiling = Decibels.gain(-0.1)

    /// Runs `left`/`right` through a fresh limiter in blocks of `block` frames.
    func limit(_ left: [Float], _ right: [Float], block: Int = 64) -> (left: [Float], right: [Float], latency: Int) {
        let limiter = PeakLimiter(sampleRate: rate)
        let buffer = StereoBuffer(capacity: block)
        var outLeft: [Float] = [], outRight: [Float] = []
        var start = 0
        while start < left.count {
            let n = min(block, left.count - start)
            let view = buffer.block(frames: n)
            for i in 0..<n {
                view.left[i] = left[start + i]
                view.right[i] = right[start + i]
            }
            limiter.process(view)
            outLeft += UnsafeBufferPointer(start: view.left, count: n)
            outRight += UnsafeBufferPointer(start: view.right, count: n)
            start += n
        }
        return (outLeft, outRight, limiter.latencyFrames)
    }

    /// A sine whose amplitude follows `amplitude(t)`.
    func tone(_ frequency: Double, seconds: Double, amplitude: (Double) -> Double) -> [Float] {
        (0..<Int(seconds * rate)).map { n in
            let t = Double(n) / rate
            return Float(amplitude(t) * sin(2 * Double.pi * frequency * t))
        }
    }

    @Test func latencyIsOnePointFiveMilliseconds() {
        #expect(PeakLimiter(sampleRate: 48_000).latencyFrames == 72)
        #expect(PeakLimiter(sampleRate: 44_100).latencyFrames == 66)
    }

    /// −0.2 dBFS peaks (just under the ceiling) come out bit for bit, delayed by the latency, in
    /// blocks shorter and longer than the delay (its ring swapped in runs up to its end).
    @Test(arguments: [100, 1, 7, 72, 73, 256])
    func signalUnderTheCeilingPassesUnchanged(block: Int) {
        let left = tone(997, seconds: 1) { _ in 0.977 }
        let right = tone(331, seconds: 1) { _ in 0.5 }
        let out = limit(left, right, block: block)
        #expect(out.left.prefix(out.latency).allSatisfy { $0 == 0 })
        #expect(Array(out.left[out.latency...]) == Array(left.dropLast(out.latency)))
        #expect(Array(out.right[out.latency...]) == Array(right.dropLast(out.latency)))
    }

    /// A 1 kHz sine fading in over 20 ms to +12 dB over the ceiling: no sample above the ceiling, the
    /// steady level right at it, and no step — the largest third difference stays within what a
    /// ceiling-level sine of that frequency has by itself (≈ 2.2e-3), with a small margin.
    @Test(arguments: [1_000.0, 150.0])
    func twelveDecibelsOverIsHeldAtTheCeilingWithoutAStep(frequency: Double) throws {
        let hot = 4 * ceiling
        let input = tone(frequency, seconds: 0.6) { t in hot * min(1, t / 0.02) }
        let out = limit(input, input)
        let peak = Measure.peak(out.left)
        #expect(peak <= Double(Float(ceiling)), "peak \(Measure.decibels(peak)) dBFS")
        let steady = out.left[Int(0.3 * rate)...]
        #expect(Measure.decibels(Measure.peak(steady)) > -0.4, "held at the ceiling, not below it")
        let smoothTone = Double(Float(ceiling)) * pow(2 * Double.pi * frequency / rate, 3)
        let steps = Measure.maxDiscontinuity(out.left)
        print("limiter +12 dB at \(frequency) Hz: peak \(Measure.decibels(peak)) dBFS, third difference \(steps) (tone alone \(smoothTone))")
        #expect(steps < 1.5 * smoothTone + 2e-4, "third difference \(steps) vs the tone's own \(smoothTone)")
    }

    /// After a 0.2 s burst at +12 dB the gain on a −20 dBFS tone recovers with the 100 ms release:
    /// the gain reduction (1 − gain) falls to 1/e of its start 100 ms ± 10 % after the hold ends.
    @Test func releaseTimeIsOneHundredMilliseconds() throws {
        let burstEnd = 0.2
        let input = tone(1_000, seconds: 1.2) { t in t < burstEnd ? 4 * ceiling : 0.1 }
        let out = limit(input, input)
        // Gain per cycle: output peak over input peak, in windows of one period (48 frames).
        func gain(at seconds: Double) -> Double {
            let start = Int(seconds * rate) + out.latency
            return Measure.peak(out.left[start..<(start + 48)]) / 0.1
        }
        let start = burstEnd + PeakLimiter.lookAheadSeconds + 0.002
        let initial = 1 - gain(at: start)
        #expect(initial > 0.5, "the burst was limited by \(initial)")
        var recovery: Double?
        for step in 1..<2000 {
            let t = start + Double(step) * 0.0005
            if 1 - gain(at: t) < initial / M_E {
                recovery = t - start
                break
            }
        }
        let measured = try #require(recovery)
        print("limiter release: reduction \(initial) → 1/e in \(measured * 1000) ms")
        #expect(abs(measured - PeakLimiter.releaseSeconds) < 0.01, "release \(measured * 1000) ms")
        #expect(abs(gain(at: 1.1) - 1) < 1e-3, "back to unity")
    }

    /// Stereo-linked: a loud left channel turns the quiet right one down by the same gain.
    @Test func bothChannelsGetTheSameGain() {
        let left = tone(1_000, seconds: 0.5) { t in 4 * ceiling * min(1, t / 0.02) }
        let right = tone(440, seconds: 0.5) { t in 0.1 * min(1, t / 0.02) }
        let out = limit(left, right)
        var worst = 0.0
        for n in Int(0.1 * rate)..<left.count where abs(left[n - out.latency]) > 0.05 && abs(right[n - out.latency]) > 0.01 {
            let gainLeft = Double(out.left[n]) / Double(left[n - out.latency])
            let gainRight = Double(out.right[n]) / Double(right[n - out.latency])
            worst = max(worst, abs(gainLeft - gainRight))
        }
        #expect(worst < 1e-5)
        let rightLevel = Measure.decibels(Measure.peak(out.right[Int(0.3 * rate)...]) / 0.1)
        #expect(abs(rightLevel - (-12.04)) < 0.2, "right turned down with left: \(rightLevel) dB")
    }

    /// Switched off, it only delays, and the gain comes back up without a jump.
    @Test func disabledOnlyDelays() {
        let limiter = PeakLimiter(sampleRate: rate)
        limiter.isEnabled = false
        let buffer = StereoBuffer(capacity: 256)
        let block = buffer.block(frames: 256)
        for i in 0..<256 {
            block.left[i] = Float(i) / 100
            block.right[i] = -Float(i) / 100
        }
        limiter.process(block)
        #expect(block.left[72] == 0 && block.left[73] == 0.01 && block.right[255] == -1.83)
    }
}
