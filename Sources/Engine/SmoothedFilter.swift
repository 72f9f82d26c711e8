#if canImport(Glibc)
import Glibc
#endif
import DSP

/// A switchable resonant low- or high-pass whose cutoff, resonance and on/off state all change
/// without clicks: cutoff glides in octaves, coefficients are recomputed every 16 frames from the
/// glide, and switching on or off crossfades between the dry and filtered signal over 10 ms.
/// Used for the master low-/high-pass and the file player's high-pass insert. Render-thread safe.
struct SmoothedFilter {
    let kind: BiquadCoefficients.Kind
    let sampleRate: Double
    private var filter = StereoBiquad()
    private var logCutoff: LinearSmoother
    private var resonance: LinearSmoother
    private var wet: LinearSmoother
    private var designed: (logCutoff: Float, resonance: Float) = (.nan, .nan)
    /// Coefficients follow the glide at this granularity (0.33 ms at 48 kHz).
    static let updateFrames = 16

    init(kind: BiquadCoefficients.Kind, sampleRate: Double, cutoffHz: Double, resonanceDecibels: Double, enabled: Bool) {
        self.kind = kind
        self.sampleRate = sampleRate
        logCutoff = LinearSmoother(value: Float(log2(cutoffHz)), sampleRate: sampleRate, rampSeconds: 0.02)
        resonance = LinearSmoother(value: Float(resonanceDecibels), sampleRate: sampleRate, rampSeconds: 0.02)
        wet = LinearSmoother(value: enabled ? 1 : 0, sampleRate: sampleRate, rampSeconds: 0.01)
    }

    @_noAllocation
    mutating func set(cutoffHz: Double, resonanceDecibels: Double, enabled: Bool, snap: Bool) {
        logCutoff.setTarget(Float(RealTimeMath.log2(max(cutoffHz, 1))))
        resonance.setTarget(Float(resonanceDecibels))
        wet.setTarget(enabled ? 1 : 0)
        if snap {
            logCutoff.snap(to: logCutoff.target)
            resonance.snap(to: resonance.target)
            wet.snap(to: wet.target)
        }
    }

    /// Clears the filter's state (used after NaN poisoned it); the settings are kept.
    @_noAllocation
    mutating func reset() { filter.reset() }

    /// True while it changes the signal (on, or fading in or out).
    var isEngaged: Bool { wet.current > 0 || wet.isRamping }

    /// The coefficients in use right now (for tests and displays).
    var coefficients: BiquadCoefficients { filter.coefficients }

    @_noAllocation
    mutating func process(_ block: StereoBlock, scratch: StereoBlock) {
        guard isEngaged else {
            // Bypassed: no glide is audible, so jump to the settings and start clean when switched on.
            filter.reset()
            logCutoff.snap(to: logCutoff.target)
            resonance.snap(to: resonance.target)
            designed = (.nan, .nan)
            return
        }
        var start = 0
        while start < block.frames {
            let n = min(Self.updateFrames, block.frames - start)
            let part = block.slice(from: start, count: n)
            redesignIfNeeded()
            for _ in 0..<n { _ = logCutoff.next(); _ = resonance.next() }
            if wet.current == 1 && !wet.isRamping {
                filter.process(part)
            } else {
                let dry = scratch.slice(from: start, count: n)
                dry.copy(from: part)
                filter.process(part)
                for i in 0..<n {
                    let w = wet.next()
                    part.left[i] = dry.left[i] + w * (part.left[i] - dry.left[i])
                    part.right[i] = dry.right[i] + w * (part.right[i] - dry.right[i])
                }
            }
            start += n
        }
    }

    private mutating func redesignIfNeeded() {
        let now = (logCutoff.current, resonance.current)
        guard now != designed else { return }
        designed = now
        filter.coefficients = .design(kind, cutoffHz: Double(RealTimeMath.exp2(now.0)), resonanceDecibels: Double(now.1), sampleRate: sampleRate)
    }
}
