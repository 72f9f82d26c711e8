import DSP
import Testing

@Suite struct EnvelopeTests {
    let rate = 48000.0
    /// Timing tolerance from the issue; the 0.25 ms corner smoothing uses part of it.
    let toleranceSeconds = 0.001

    func levels(_ env: inout Envelope, frames: Int) -> [Float] {
        (0..<frames).map { _ in env.next() }
    }

    @Test func attackDecayAndReleaseTakeTheirTimes() {
        let s = EnvelopeSettings(attackSeconds: 0.050, decaySeconds: 0.100, sustainLevel: 0.5, releaseSeconds: 0.200)
        var env = Envelope(sampleRate: rate, settings: s)
        env.noteOn()
        let on = levels(&env, frames: Int(0.5 * rate))
        // Attack: the level crosses 0.5 (half way up a linear ramp) at attack / 2.
        let half = on.firstIndex { $0 >= 0.5 }!
        #expect(abs(Double(half) / rate - 0.025) < toleranceSeconds)
        // Peak at the end of the attack.
        let peakIndex = on.indices.max { on[$0] < on[$1] }!
        #expect(abs(Double(peakIndex) / rate - 0.050) < toleranceSeconds)
        // Decay reaches the sustain level at attack + decay.
        let settled = on[peakIndex...].firstIndex { $0 <= 0.5 + 1e-4 }!
        #expect(abs(Double(settled) / rate - 0.150) < toleranceSeconds)
        env.noteOff()
        let off = levels(&env, frames: Int(0.5 * rate))
        let silent = off.firstIndex { $0 < 1e-4 }!
        #expect(abs(Double(silent) / rate - 0.200) < toleranceSeconds)
        #expect(env.isIdle)
    }

    @Test func delayAndHoldShiftTheShape() {
        let s = EnvelopeSettings(delaySeconds: 0.020, attackSeconds: 0.010, holdSeconds: 0.030, decaySeconds: 0.010, sustainLevel: 0.2, releaseSeconds: 0.1)
        var env = Envelope(sampleRate: rate, settings: s)
        env.noteOn()
        let on = levels(&env, frames: Int(0.2 * rate))
        let start = on.firstIndex { $0 > 1e-3 }!
        #expect(abs(Double(start) / rate - 0.020) < toleranceSeconds)
        let decayStart = on.lastIndex { $0 > 0.999 }!
        #expect(abs(Double(decayStart) / rate - 0.060) < toleranceSeconds)
    }

    @Test func retriggerContinuesFromTheCurrentLevel() {
        var env = Envelope(sampleRate: rate, settings: EnvelopeSettings(attackSeconds: 0.01, releaseSeconds: 0.5))
        env.noteOn()
        _ = levels(&env, frames: 2000)
        env.noteOff()
        _ = levels(&env, frames: 2000)
        let before = env.output
        env.noteOn()
        let after = env.next()
        #expect(abs(after - before) < 0.01, "a retrigger must not jump")
    }

    @Test func fastReleaseSilencesWithinItsTime() {
        var env = Envelope(sampleRate: rate)
        env.noteOn()
        _ = levels(&env, frames: 10000)
        env.fastRelease(seconds: 0.003)
        let fade = levels(&env, frames: 1000)
        let silent = fade.firstIndex { $0 < 1e-4 }!
        // The linear 3 ms ramp plus the corner smoother's tail stays inside the 1–5 ms steal fade.
        #expect(Double(silent) / rate < 0.005)
    }

    /// Curved segments follow `EnvelopeCurve.shape` (sampled at several points of a 1 s attack,
    /// decay to 0.25 and release) within 0.5 % of full scale; the recursion ends exactly on target.
    @Test(arguments: EnvelopeCurve.allCases)
    func curvedSegmentsFollowTheirFormula(curve: EnvelopeCurve) {
        let s = EnvelopeSettings(
            attackSeconds: 1, decaySeconds: 1, sustainLevel: 0.25, releaseSeconds: 1,
            attackCurve: curve, decayCurve: curve, releaseCurve: curve)
        var env = Envelope(sampleRate: rate, settings: s)
        env.noteOn()
        let on = levels(&env, frames: Int(2.5 * rate))
        env.noteOff()
        let off = levels(&env, frames: Int(1.1 * rate))
        for p in [0.05, 0.2, 0.5, 0.8, 0.95] {
            let n = Int(p * rate)
            #expect(abs(Double(on[n]) - curve.shape(p)) < 0.005, "attack \(p)")
            #expect(abs(Double(on[Int(rate) + n]) - (1 - 0.75 * curve.shape(p))) < 0.005, "decay \(p)")
            #expect(abs(Double(off[n]) - 0.25 * (1 - curve.shape(p))) < 0.005, "release \(p)")
        }
        #expect(abs(on[Int(2.4 * rate)] - 0.25) < 1e-6)
        #expect(env.isIdle)
    }
}
