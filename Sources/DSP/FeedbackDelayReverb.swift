import MemberwiseInit
#if canImport(Glibc)
import Glibc
#endif

/// What `FeedbackDelayReverb` does, in real units. Values outside the ranges are clamped.
@PublicInit
public struct ReverbSettings: Sendable, Equatable {
    /// RT60 at low frequencies: seconds for the tail to fall by 60 dB.
    public var decaySeconds: Double = 1.8
    /// RT60 at `dampingHz` as a fraction of `decaySeconds` (1 = no high-frequency damping).
    public var highFrequencyDecayRatio: Double = 0.5
    /// Where `highFrequencyDecayRatio` holds, Hz.
    public var dampingHz: Double = 5000
    /// Time before the reverb starts, seconds.
    public var preDelaySeconds: Double = 0.012
    /// Scales the eight delay lengths (1 = 43–86 ms, a mid-sized hall); a change glides over 0.2 s.
    public var size: Double = 1
    /// Early diffusion, 0…1 (all-pass coefficient 0…0.7 on each input before the network). The
    /// all-passes span ~30 ms, so the tail's first echo comes ~73 ms after `preDelaySeconds` at
    /// size 1, with diffused sound rising from the start when diffusion is above 0.
    public var diffusion: Double = 0.7
    /// Return level, dB.
    public var levelDecibels: Double = 0

    public static let decayRange = 0.1...30.0
    public static let highFrequencyDecayRatioRange = 0.05...1.0
    public static let dampingRange = 200.0...20_000.0
    public static let preDelayRange = 0.0...0.25
    public static let sizeRange = 0.25...2.0
    public static let diffusionRange = 0.0...1.0
    public static let levelRange = -96.0...12.0
}

/// `FeedbackDelayReverb`'s constants: in an enum, not the class (a class's statics are lazily
/// initialised behind a lock, which the real-time checks reject); the vectors are computed
/// (a `let` of a computed vector would be a lazy global too).
enum FDN {
    static let lineCount = 8
    /// Line lengths at size 1. Their sum (0.52 s) gives the mode density a 3 s hall needs
    /// (Schroeder: ≥ 0.15 × RT60 modes per Hz) and the longest line stays under the ~100 ms where
    /// separate echoes would be heard.
    static var baseLineMilliseconds: SIMD8<Double> { SIMD8(43.1, 49.3, 55.7, 61.9, 67.1, 73.7, 79.9, 86.3) }
    static let glideSeconds = 0.2
    static let smoothingSeconds = 0.05
    /// The diffusers' stage lengths (left, right): different, so the channels decorrelate at once.
    static var diffuserMilliseconds: (left: SIMD4<Double>, right: SIMD4<Double>) {
        ([4.771, 3.595, 12.73, 9.307], [4.931, 3.793, 12.21, 9.811])
    }
    static let maxDiffusionCoefficient = 0.7

    /// Where the two inputs enter the lines and the two outputs leave them: rows of a Hadamard
    /// matrix (orthogonal), scaled to unit norm.
    static var inputLeft: SIMD8<Float> { SIMD8<Float>(1, 1, 1, 1, -1, -1, -1, -1) * unitNorm }
    static var inputRight: SIMD8<Float> { SIMD8<Float>(1, -1, -1, 1, 1, -1, -1, 1) * unitNorm }
    static var outputLeft: SIMD8<Float> { SIMD8<Float>(1, -1, 1, -1, 1, -1, 1, -1) * unitNorm }
    static var outputRight: SIMD8<Float> { SIMD8<Float>(1, 1, -1, -1, 1, 1, -1, -1) * unitNorm }
    /// 1/√8, written out: a computed `let` would be a lazy global, initialised behind a lock.
    static let unitNorm: Float = 0.353_553_39

    static func clamped(_ s: ReverbSettings) -> ReverbSettings {
        typealias R = ReverbSettings
        return R(decaySeconds: R.decayRange.clamp(s.decaySeconds),
                 highFrequencyDecayRatio: R.highFrequencyDecayRatioRange.clamp(s.highFrequencyDecayRatio),
                 dampingHz: R.dampingRange.clamp(s.dampingHz), preDelaySeconds: R.preDelayRange.clamp(s.preDelaySeconds),
                 size: R.sizeRange.clamp(s.size), diffusion: R.diffusionRange.clamp(s.diffusion), levelDecibels: R.levelRange.clamp(s.levelDecibels))
    }

    /// The eight lengths in samples for `size`: the scaled base lengths, each moved up to the next
    /// value coprime with all earlier ones, so no two lines share a period (their echoes would
    /// pile up into a flutter).
    static func lineLengths(size: Double, sampleRate: Double) -> SIMD8<Float> {
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        var chosen = SIMD8<Int>()
        for k in 0..<lineCount {
            var m = max(16, Int(round(baseLineMilliseconds[k] * size * sampleRate / 1000)))
            var j = 0
            while j < k {  // a loop, not contains(where:): no closure on the render path
                if chosen[j] == m || gcd(chosen[j], m) != 1 {
                    m += 1
                    j = 0
                } else {
                    j += 1
                }
            }
            chosen[k] = m
        }
        return SIMD8<Float>(chosen)
    }

    /// The lengths truncated to whole samples, element by element (SIMD's converting initialiser
    /// takes a rounding rule, a type the real-time checks reject).
    @inline(__always)
    static func whole(_ lengths: SIMD8<Float>) -> SIMD8<Int> {
        var n = SIMD8<Int>()
        for k in 0..<lineCount { n[k] = Int(lengths[k]) }
        return n
    }

    /// The orthogonal 8×8 Hadamard matrix (Sylvester order) times x, scaled by 1/√8: a fast
    /// Walsh–Hadamard transform, 24 additions instead of 64 multiply-adds.
    @inline(__always)
    static func hadamard(_ x: SIMD8<Float>) -> SIMD8<Float> {
        @inline(__always) func h2(_ u: SIMD2<Float>) -> SIMD2<Float> { SIMD2(u.x + u.y, u.x - u.y) }
        @inline(__always) func h4(_ v: SIMD4<Float>) -> SIMD4<Float> {
            SIMD4(lowHalf: h2(v.lowHalf + v.highHalf), highHalf: h2(v.lowHalf - v.highHalf))
        }
        let y = SIMD8(lowHalf: h4(x.lowHalf + x.highHalf), highHalf: h4(x.lowHalf - x.highHalf))
        return y * unitNorm
    }
}

/// A stereo send reverb: an 8-line feedback delay network (Jot & Chaigne 1991; Jot, "An analysis/
/// synthesis approach to real-time artificial reverberation", ICASSP 1992).
///
/// input L/R → pre-delay → 4 all-passes each (early diffusion) → 8 delay lines of mutually prime
/// lengths → a one-pole absorbent low-pass per line → an orthogonal 8×8 Hadamard feedback matrix.
/// Each line's low-pass has gain 10^(−3·m/(T·fs)) at DC and at `dampingHz` the same with T scaled
/// by the ratio, m being the line's length in samples: every line then loses 60 dB in exactly
/// `decaySeconds` whatever its length, and the lossless matrix mixes without changing that, so
/// the tail decays exponentially at the set RT60 (measured in the tests by Schroeder integration).
/// The two outputs tap the lines with orthogonal sign patterns, so they are decorrelated.
/// The output is wet only (a send effect): a unit impulse on both inputs gives a tail whose
/// energy grows with the decay time (measured: −7.6 dB for 1 s, −1.7 dB for 3 s).
///
/// Allocate on the control thread (everything for the largest size at `sampleRate`); `apply`,
/// `process` and `reset` are render-thread safe: no allocation, no locks, no objects created.
public final class FeedbackDelayReverb {
    public let sampleRate: Double
    public let maxFrames: Int
    public private(set) var settings: ReverbSettings

    /// The lines, interleaved: frame i of line k at `ring[i × 8 + k]`, so one SIMD8 store writes
    /// all eight at once and one write index serves them all.
    let ring: UnsafeMutablePointer<Float>
    let ringMask: Int
    var writeIndex = 0
    /// Current lengths in samples (fractional only while a size change glides) and their targets.
    var lengths = SIMD8<Float>()
    var integerLengths = SIMD8<Int>()
    var targetLengths = SIMD8<Float>()
    var lengthStep = SIMD8<Float>()
    var glideFramesLeft = 0
    /// Per line absorbent filter y = b·x + a·y₁; its state is the line's output.
    var filterGain = SIMD8<Float>()
    var filterPole = SIMD8<Float>()
    var lineOutputs = SIMD8<Float>()

    let preDelay: (left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>)
    let preDelayMask: Int
    var preDelayWrite = 0
    var preDelayFrames: LinearSmoother
    var diffusers: (left: AllpassDiffuser, right: AllpassDiffuser)

    /// Smoothed in the log domain (decay, ratio, damping) so a sweep moves evenly in perception.
    var logDecay: LinearSmoother
    var logRatio: LinearSmoother
    var logDamping: LinearSmoother
    var diffusionCoefficient: LinearSmoother
    var level: LinearSmoother

    public init(sampleRate: Double, maxFrames: Int, settings: ReverbSettings = ReverbSettings()) {
        precondition(sampleRate > 0 && maxFrames > 0)
        self.sampleRate = sampleRate
        self.maxFrames = maxFrames
        let longest = FDN.baseLineMilliseconds.max() * ReverbSettings.sizeRange.upperBound * sampleRate / 1000
        var size = 1
        // + 64: room for the coprime search and the fractional read's second sample.
        while size < Int(longest) + 64 { size <<= 1 }
        ringMask = size - 1
        ring = .allocate(capacity: size * FDN.lineCount)
        ring.initialize(repeating: 0, count: size * FDN.lineCount)

        var preSize = 1
        while preSize < Int(ReverbSettings.preDelayRange.upperBound * sampleRate) + 2 { preSize <<= 1 }
        preDelayMask = preSize - 1
        preDelay = (.allocate(capacity: preSize), .allocate(capacity: preSize))
        preDelay.left.initialize(repeating: 0, count: preSize)
        preDelay.right.initialize(repeating: 0, count: preSize)
        diffusers = (AllpassDiffuser(sampleRate: sampleRate, milliseconds: FDN.diffuserMilliseconds.left),
                     AllpassDiffuser(sampleRate: sampleRate, milliseconds: FDN.diffuserMilliseconds.right))

        let s = FDN.clamped(settings)
        self.settings = s
        preDelayFrames = LinearSmoother(value: Float(s.preDelaySeconds * sampleRate), sampleRate: sampleRate, rampSeconds: FDN.glideSeconds)
        logDecay = LinearSmoother(value: Float(log(s.decaySeconds)), sampleRate: sampleRate, rampSeconds: FDN.smoothingSeconds)
        logRatio = LinearSmoother(value: Float(log(s.highFrequencyDecayRatio)), sampleRate: sampleRate, rampSeconds: FDN.smoothingSeconds)
        logDamping = LinearSmoother(value: Float(log(s.dampingHz)), sampleRate: sampleRate, rampSeconds: FDN.smoothingSeconds)
        diffusionCoefficient = LinearSmoother(value: Float(s.diffusion * FDN.maxDiffusionCoefficient), sampleRate: sampleRate,
                                              rampSeconds: FDN.smoothingSeconds)
        level = LinearSmoother(value: Float(Decibels.gain(s.levelDecibels)), sampleRate: sampleRate, rampSeconds: FDN.smoothingSeconds)
        targetLengths = FDN.lineLengths(size: s.size, sampleRate: sampleRate)
        lengths = targetLengths
        integerLengths = FDN.whole(lengths)
        updateCoefficients()
    }

    deinit {
        ring.deallocate()
        preDelay.left.deallocate()
        preDelay.right.deallocate()
        diffusers.left.deallocate()
        diffusers.right.deallocate()
    }

    /// Takes new settings at block start (render thread): every change is smoothed or glides.
    /// Render-thread safe; cheap when nothing changed.
    @_noAllocation
    public func apply(_ newSettings: ReverbSettings) {
        let s = FDN.clamped(newSettings)
        guard s != settings else { return }
        let old = settings
        settings = s
        if s.decaySeconds != old.decaySeconds { logDecay.setTarget(Float(log(s.decaySeconds))) }
        if s.highFrequencyDecayRatio != old.highFrequencyDecayRatio { logRatio.setTarget(Float(log(s.highFrequencyDecayRatio))) }
        if s.dampingHz != old.dampingHz { logDamping.setTarget(Float(log(s.dampingHz))) }
        if s.diffusion != old.diffusion { diffusionCoefficient.setTarget(Float(s.diffusion * FDN.maxDiffusionCoefficient)) }
        if s.levelDecibels != old.levelDecibels { level.setTarget(Float(Decibels.gain(s.levelDecibels))) }
        if s.preDelaySeconds != old.preDelaySeconds { preDelayFrames.setTarget(Float(s.preDelaySeconds * sampleRate)) }
        if s.size != old.size {
            targetLengths = FDN.lineLengths(size: s.size, sampleRate: sampleRate)
            glideFramesLeft = max(1, Int(FDN.glideSeconds * sampleRate))
            lengthStep = (targetLengths - lengths) / Float(glideFramesLeft)
        }
    }

    /// How long the output keeps sounding after the input falls silent: pre-delay, diffusers and
    /// the longest line, then two decay times (−120 dB) at the slower of the current and the set
    /// decay. A caller may stop calling `process` this long after the last non-silent input.
    public var tailSeconds: Double {
        @_noAllocation get {
            let decay = max(settings.decaySeconds, Double(exp(logDecay.current)))
            let longestLine = Double(max(lengths.max(), targetLengths.max())) / sampleRate
            return ReverbSettings.preDelayRange.upperBound + 0.03 + longestLine + 2 * decay
        }
    }

    /// Silences the tail and jumps every smoothed value to its target. Render-thread safe but O(memory):
    /// clears ~0.5 MB at 48 kHz (tens of µs).
    @_noAllocation
    public func reset() {
        ring.update(repeating: 0, count: (ringMask + 1) * FDN.lineCount)
        preDelay.left.update(repeating: 0, count: preDelayMask + 1)
        preDelay.right.update(repeating: 0, count: preDelayMask + 1)
        diffusers.left.reset()
        diffusers.right.reset()
        lineOutputs = SIMD8()
        lengths = targetLengths
        integerLengths = FDN.whole(lengths)
        glideFramesLeft = 0
        preDelayFrames.snap(to: preDelayFrames.target)
        logDecay.snap(to: logDecay.target)
        logRatio.snap(to: logRatio.target)
        logDamping.snap(to: logDamping.target)
        diffusionCoefficient.snap(to: diffusionCoefficient.target)
        level.snap(to: level.target)
        updateCoefficients()
    }

    /// Jot's absorbent filters: for each line a one-pole low-pass b/(1 − a·z⁻¹) with gain g₀ at DC
    /// and g₁ at `dampingHz`, gᵢ = 10^(−3·m/(Tᵢ·fs)). From |H(ω)|²/|H(0)|² = r = (g₁/g₀)²:
    /// a² − 2Ba + 1 = 0 with B = (1 − r·cos ω)/(1 − r); the root inside the unit circle is
    /// a = 1/(B + √(B² − 1)) (written so, it does not cancel when r → 1), and b = g₀(1 − a).
    @_noAllocation
    func updateCoefficients() {
        let decay = Double(exp(logDecay.current))
        let highDecay = decay * Double(exp(logRatio.current))
        let dampingHz = min(Double(exp(logDamping.current)), 0.45 * sampleRate)
        let c = cos(2 * Double.pi * dampingHz / sampleRate)
        for k in 0..<FDN.lineCount {
            let m = Double(lengths[k])
            let g0 = pow(10, -3 * m / (decay * sampleRate))
            let g1 = pow(10, -3 * m / (highDecay * sampleRate))
            let r = (g1 / g0) * (g1 / g0)
            var a = 0.0
            if r < 1 {
                let b = (1 - r * c) / (1 - r)
                a = 1 / (b + sqrt(b * b - 1))
            }
            filterPole[k] = Float(a)
            filterGain[k] = Float(g0 * (1 - a))
        }
    }

    /// Renders the wet signal of `input` into `output` (may be the same buffers), at most
    /// `maxFrames` frames. Render-thread safe.
    @_noAllocation
    public func process(input: StereoBlock, output: StereoBlock) {
        let maxFrames = maxFrames  // a local: the precondition's autoclosure would capture self
        precondition(input.frames <= maxFrames, "block above maxFrames: the caller chunks (Sources/DSP/README.md)")
        let frames = min(input.frames, output.frames)
        guard frames > 0 else { return }
        let decayRamping = logDecay.isRamping, ratioRamping = logRatio.isRamping, dampingRamping = logDamping.isRamping
        let ramping = decayRamping || ratioRamping || dampingRamping
        logDecay.advance(by: frames)
        logRatio.advance(by: frames)
        logDamping.advance(by: frames)
        let gliding = min(glideFramesLeft, frames)
        if ramping || gliding > 0 { updateCoefficients() }
        var inputSum: Float = 0
        if gliding > 0 {
            inputSum += render(input, output, 0..<gliding, fractional: true)
            glideFramesLeft -= gliding
            if glideFramesLeft == 0 {
                lengths = targetLengths
                integerLengths = FDN.whole(lengths)
            }
        }
        if gliding < frames { inputSum += render(input, output, gliding..<frames, fractional: false) }
        // A NaN or infinity on the send (a bug upstream) would recirculate forever: drop the
        // block and start clean.
        if !inputSum.isFinite {
            reset()
            output.slice(from: 0, count: frames).clear()
        }
    }

    /// The per-frame work; `fractional` reads the lines between samples (linear) while their
    /// lengths glide, the plain path reads whole samples. Returns the sum of the input samples
    /// (not finite when the input was not).
    @inline(__always)
    private func render(_ input: StereoBlock, _ output: StereoBlock, _ range: Range<Int>, fractional: Bool) -> Float {
        let ring = ring, mask = ringMask
        let preLeft = preDelay.left, preRight = preDelay.right, preMask = preDelayMask
        var (diffuseLeft, diffuseRight) = diffusers
        let b = filterGain, a = filterPole, n = integerLengths
        let inL = FDN.inputLeft, inR = FDN.inputRight, outL = FDN.outputLeft, outR = FDN.outputRight
        var y = lineOutputs, w = writeIndex, p = preDelayWrite, m = lengths
        var inputSum: Float = 0
        for i in range {
            // Pre-delay (always read between samples: its time glides when changed).
            let (xl, xr) = (input.left[i], input.right[i])
            inputSum += xl + xr
            preLeft[p] = xl
            preRight[p] = xr
            let delay = preDelayFrames.next()
            let whole = Int(delay), frac = delay - Float(whole)
            let i0 = (p &- whole) & preMask, i1 = (p &- whole &- 1) & preMask
            var inLeft = preLeft[i0] + frac * (preLeft[i1] - preLeft[i0])
            var inRight = preRight[i0] + frac * (preRight[i1] - preRight[i0])
            p = (p &+ 1) & preMask

            let g = diffusionCoefficient.next()
            inLeft = diffuseLeft.process(inLeft, coefficient: g)
            inRight = diffuseRight.process(inRight, coefficient: g)

            var d = SIMD8<Float>()
            if fractional {
                for k in 0..<FDN.lineCount {
                    let whole = Int(m[k]), frac = m[k] - Float(whole)
                    let x0 = ring[((w &- whole) & mask) &* 8 &+ k], x1 = ring[((w &- whole &- 1) & mask) &* 8 &+ k]
                    d[k] = x0 + frac * (x1 - x0)
                }
                m += lengthStep
            } else {
                for k in 0..<FDN.lineCount { d[k] = ring[((w &- n[k]) & mask) &* 8 &+ k] }
            }
            y = FlushDenormals.flush(b * d + a * y)
            let feedback = FDN.hadamard(y) + inLeft * inL + inRight * inR
            UnsafeMutableRawPointer(ring + w &* 8).storeBytes(of: FlushDenormals.flush(feedback), as: SIMD8<Float>.self)
            w = (w &+ 1) & mask

            let gain = level.next()
            output.left[i] = gain * (y * outL).sum()
            output.right[i] = gain * (y * outR).sum()
        }
        lineOutputs = y
        diffusers = (diffuseLeft, diffuseRight)
        writeIndex = w
        preDelayWrite = p
        if fractional { lengths = m }
        return inputSum
    }
}
