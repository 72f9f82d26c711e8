import MemberwiseInit
#if canImport(Glibc)
import Glibc
#endif

/// What `StereoChorus` does, in real units. Values outside the ranges are clamped.
@PublicInit
public struct ChorusSettings: Sendable, Equatable {
    /// LFO rate (sine), Hz.
    public var rateHz: Double = 0.5
    /// Peak delay deviation of each voice around the base delay, milliseconds.
    public var depthMilliseconds: Double = 2.5
    /// Centre delay of the voices, milliseconds.
    public var baseDelayMilliseconds: Double = 12
    /// 0: every voice in the centre; 1: voices spread evenly from hard left to hard right.
    public var spread: Double = 1
    /// Return level, dB.
    public var levelDecibels: Double = 0

    public static let rateRange = 0.01...10.0
    public static let depthRange = 0.0...10.0
    public static let baseDelayRange = 1.0...40.0
    public static let spreadRange = 0.0...1.0
    public static let levelRange = -96.0...12.0
}

/// `StereoChorus`'s constants and formulas: in an enum, not the class (a class's statics are
/// lazily initialised behind a lock, which the real-time checks reject).
enum ChorusVoices {
    static let minimum = 2, maximum = 4
    static var range: ClosedRange<Int> { minimum...maximum }
    static let smoothingSeconds = 0.05

    static func clamped(_ s: ChorusSettings) -> ChorusSettings {
        typealias C = ChorusSettings
        return C(rateHz: C.rateRange.clamp(s.rateHz), depthMilliseconds: C.depthRange.clamp(s.depthMilliseconds),
                 baseDelayMilliseconds: C.baseDelayRange.clamp(s.baseDelayMilliseconds), spread: C.spreadRange.clamp(s.spread),
                 levelDecibels: C.levelRange.clamp(s.levelDecibels))
    }

    /// e^{j2πk/N} for each voice k of N.
    static func offsets(voices: Int) -> (cos: SIMD4<Float>, sin: SIMD4<Float>) {
        var offsetCos = SIMD4<Float>(), offsetSin = SIMD4<Float>()
        for k in 0..<voices {
            let angle = 2 * Double.pi * Double(k) / Double(voices)
            offsetCos[k] = Float(cos(angle))
            offsetSin[k] = Float(sin(angle))
        }
        return (offsetCos, offsetSin)
    }

    static func rotation(rateHz: Double, sampleRate: Double) -> (cos: Float, sin: Float) {
        let step = 2 * Double.pi * rateHz / sampleRate
        return (Float(cos(step)), Float(sin(step)))
    }
}

/// A stereo send chorus: the mono sum of the input into one delay line, read by 2–4 voices whose
/// delays swing sinusoidally (base ± depth) with LFO phases k/N of a cycle apart, each voice
/// equal-power panned (spread) and read with 4-point cubic Hermite interpolation (smooth enough
/// that the moving read adds no audible roughness, at a quarter of a windowed sinc's cost).
/// Wet only. The LFO is a complex rotator re-anchored every block from an exact phase, so it
/// neither drifts nor costs a sine per sample; rate changes keep the phase continuous, and base,
/// depth, spread and level are smoothed, so every parameter can move while it plays.
///
/// Allocate on the control thread; `apply`, `process` and `reset` are render-thread safe.
public final class StereoChorus {
    /// 2…4 (`ChorusVoices.range`).
    public static var voiceRange: ClosedRange<Int> { ChorusVoices.range }

    public let sampleRate: Double
    public let maxFrames: Int
    public private(set) var voiceCount: Int
    public private(set) var settings: ChorusSettings

    let ring: UnsafeMutablePointer<Float>
    let mask: Int
    var writeIndex = 0
    /// LFO phase of voice 0 in cycles, [0, 1), and the per-frame rotation for the rate.
    var phase = 0.0
    var rotation: (cos: Float, sin: Float) = (1, 0)
    /// e^{j2πk/N}: voice k's phase offset from voice 0.
    var voiceOffsets: (cos: SIMD4<Float>, sin: SIMD4<Float>)
    var baseFrames: LinearSmoother
    var depthFrames: LinearSmoother
    var spread: LinearSmoother
    var level: LinearSmoother
    /// Pan gains reached at the end of the last block (ramped sample by sample to the next ones).
    var gains: (left: SIMD4<Float>, right: SIMD4<Float>)

    /// `voices`: 2…4 (`setVoiceCount` changes it later).
    public init(sampleRate: Double, maxFrames: Int, voices: Int = 3, settings: ChorusSettings = ChorusSettings()) {
        precondition(sampleRate > 0 && maxFrames > 0)
        self.sampleRate = sampleRate
        self.maxFrames = maxFrames
        voiceCount = min(max(voices, ChorusVoices.minimum), ChorusVoices.maximum)
        let longest = (ChorusSettings.baseDelayRange.upperBound + ChorusSettings.depthRange.upperBound) * sampleRate / 1000
        var size = 1
        while size < Int(longest) + 4 { size <<= 1 }
        mask = size - 1
        ring = .allocate(capacity: size)
        ring.initialize(repeating: 0, count: size)

        voiceOffsets = ChorusVoices.offsets(voices: voiceCount)

        let s = ChorusVoices.clamped(settings)
        self.settings = s
        baseFrames = LinearSmoother(value: Float(s.baseDelayMilliseconds * sampleRate / 1000), sampleRate: sampleRate,
                                    rampSeconds: ChorusVoices.smoothingSeconds)
        depthFrames = LinearSmoother(value: Float(s.depthMilliseconds * sampleRate / 1000), sampleRate: sampleRate,
                                     rampSeconds: ChorusVoices.smoothingSeconds)
        spread = LinearSmoother(value: Float(s.spread), sampleRate: sampleRate, rampSeconds: ChorusVoices.smoothingSeconds)
        level = LinearSmoother(value: Float(Decibels.gain(s.levelDecibels)), sampleRate: sampleRate, rampSeconds: ChorusVoices.smoothingSeconds)
        gains = (SIMD4(), SIMD4())
        gains = panGains(spread: Float(s.spread))
        rotation = ChorusVoices.rotation(rateHz: s.rateHz, sampleRate: sampleRate)
    }

    deinit { ring.deallocate() }

    /// Changes the number of voices (2…4, clamped) at the next block. Render thread; the sound changes
    /// at once (voices are added or dropped, not faded), so this is a setting, not a performance control.
    @_noAllocation
    public func setVoiceCount(_ voices: Int) {
        let n = min(max(voices, ChorusVoices.minimum), ChorusVoices.maximum)
        guard n != voiceCount else { return }
        voiceCount = n
        voiceOffsets = ChorusVoices.offsets(voices: n)
        gains = panGains(spread: spread.current)
    }

    /// Equal-power pan of voice k at position spread·(2k/(N−1) − 1), scaled by √(2/N) so N voices
    /// of uncorrelated signal sum to the input's power.
    @_noAllocation
    func panGains(spread: Float) -> (left: SIMD4<Float>, right: SIMD4<Float>) {
        var left = SIMD4<Float>(), right = SIMD4<Float>()
        let norm = RealTimeMath.sqrt(2 / Float(voiceCount))
        for k in 0..<voiceCount {
            let position = spread * (2 * Float(k) / Float(voiceCount - 1) - 1)
            // cos of mirrored angles (not cos and sin of one): exactly equal gains in the centre.
            left[k] = norm * cos((1 + position) * Float.pi / 4)
            right[k] = norm * cos((1 - position) * Float.pi / 4)
        }
        return (left, right)
    }

    /// Takes new settings at block start (render thread). Render-thread safe; cheap when nothing changed.
    @_noAllocation
    public func apply(_ newSettings: ChorusSettings) {
        let s = ChorusVoices.clamped(newSettings)
        guard s != settings else { return }
        settings = s
        rotation = ChorusVoices.rotation(rateHz: s.rateHz, sampleRate: sampleRate)
        baseFrames.setTarget(Float(s.baseDelayMilliseconds * sampleRate / 1000))
        depthFrames.setTarget(Float(s.depthMilliseconds * sampleRate / 1000))
        spread.setTarget(Float(s.spread))
        level.setTarget(Float(Decibels.gain(s.levelDecibels)))
    }

    /// How long the output keeps sounding after the input falls silent (the longest delay a
    /// voice can read). A caller may stop calling `process` this long after the last input.
    public var tailSeconds: Double {
        @_noAllocation get { (ChorusSettings.baseDelayRange.upperBound + ChorusSettings.depthRange.upperBound) / 1000 }
    }

    /// Silence, LFO at phase 0, smoothed values at their targets. Render-thread safe (clears ~8 KB at 48 kHz).
    @_noAllocation
    public func reset() {
        ring.update(repeating: 0, count: mask + 1)
        writeIndex = 0
        phase = 0
        baseFrames.snap(to: baseFrames.target)
        depthFrames.snap(to: depthFrames.target)
        spread.snap(to: spread.target)
        level.snap(to: level.target)
        gains = panGains(spread: spread.current)
    }

    /// Renders the wet signal of `input` into `output` (may be the same buffers), at most
    /// `maxFrames` frames. Render-thread safe.
    @_noAllocation
    public func process(input: StereoBlock, output: StereoBlock) {
        let maxFrames = maxFrames  // a local: the precondition's autoclosure would capture self
        precondition(input.frames <= maxFrames, "block above maxFrames: the caller chunks (Sources/DSP/README.md)")
        let frames = min(input.frames, output.frames)
        guard frames > 0 else { return }
        spread.advance(by: frames)
        let endGains = panGains(spread: spread.current)
        let gainStep = ((endGains.left - gains.left) / Float(frames), (endGains.right - gains.right) / Float(frames))
        var (gainLeft, gainRight) = gains

        let anchor = 2 * Double.pi * phase
        let (c0, s0) = (Float(cos(anchor)), Float(sin(anchor)))
        var lfoCos = c0 * voiceOffsets.cos - s0 * voiceOffsets.sin
        var lfoSin = c0 * voiceOffsets.sin + s0 * voiceOffsets.cos
        phase += settings.rateHz * Double(frames) / sampleRate
        phase -= floor(phase)
        let (rc, rs) = rotation

        let ring = ring, mask = mask, voices = voiceCount
        let longest = Float(mask - 3)
        var w = writeIndex
        var inputSum: Float = 0
        for i in 0..<frames {
            let x = 0.5 * (input.left[i] + input.right[i])
            inputSum += x
            ring[w] = x
            let delays = baseFrames.next() + depthFrames.next() * lfoSin
            var taps = SIMD4<Float>()
            for k in 0..<voices {
                // Scalar clamp: SIMD4's clamped(lowerBound:upperBound:) is an out-of-line call here.
                let delay = min(max(delays[k], 1), longest)
                let whole = Int(delay), f = delay - Float(whole)
                let newer = ring[(w &- whole &+ 1) & mask], y0 = ring[(w &- whole) & mask]
                let y1 = ring[(w &- whole &- 1) & mask], older = ring[(w &- whole &- 2) & mask]
                // Catmull-Rom (4-point cubic Hermite) between y0 and y1.
                let c1 = 0.5 * (y1 - newer)
                let c2 = newer - 2.5 * y0 + 2 * y1 - 0.5 * older
                let c3 = 0.5 * (older - newer) + 1.5 * (y0 - y1)
                taps[k] = ((c3 * f + c2) * f + c1) * f + y0
            }
            (lfoCos, lfoSin) = (lfoCos * rc - lfoSin * rs, lfoCos * rs + lfoSin * rc)
            gainLeft += gainStep.0
            gainRight += gainStep.1
            let g = level.next()
            output.left[i] = g * (taps * gainLeft).sum()
            output.right[i] = g * (taps * gainRight).sum()
            w = (w &+ 1) & mask
        }
        writeIndex = w
        gains = endGains
        // A NaN or infinity on the send (a bug upstream) would sound for the whole line: drop
        // the block and start clean.
        if !inputSum.isFinite {
            reset()
            output.slice(from: 0, count: frames).clear()
        }
    }
}
