#if canImport(Glibc)
import Glibc
#endif

/// Times and level of a delay–attack–hold–decay–sustain–release envelope, in seconds and 0…1.
public struct EnvelopeSettings: Sendable, Equatable {
    public var delaySeconds: Double
    public var attackSeconds: Double
    public var holdSeconds: Double
    public var decaySeconds: Double
    public var sustainLevel: Double
    public var releaseSeconds: Double
    /// Shapes of the moving segments (delay, hold and sustain are flat).
    public var attackCurve: EnvelopeCurve
    public var decayCurve: EnvelopeCurve
    public var releaseCurve: EnvelopeCurve

    public init(
        delaySeconds: Double = 0, attackSeconds: Double = 0.005, holdSeconds: Double = 0,
        decaySeconds: Double = 0.1, sustainLevel: Double = 0.8, releaseSeconds: Double = 0.2,
        attackCurve: EnvelopeCurve = .linear, decayCurve: EnvelopeCurve = .linear, releaseCurve: EnvelopeCurve = .linear
    ) {
        self.delaySeconds = delaySeconds
        self.attackSeconds = attackSeconds
        self.holdSeconds = holdSeconds
        self.decaySeconds = decaySeconds
        self.sustainLevel = sustainLevel
        self.releaseSeconds = releaseSeconds
        self.attackCurve = attackCurve
        self.decayCurve = decayCurve
        self.releaseCurve = releaseCurve
    }
}

/// The shape of one envelope segment going from level `a` to level `b` over `n` frames, as a
/// function of the progress p = frame / n ∈ 0…1:
///
///     linear   a + (b − a)·p
///     convex   a + (b − a)·(1 − e^(−k·p)) / (1 − e^(−k))   moves fast first, then settles (an RC charge)
///     concave  a + (b − a)·(e^(k·p) − 1) / (e^k − 1)       starts slowly, then hurries (its mirror image)
///
/// with k = ln 100 (the exponential spans 40 dB over the segment, then is rescaled to end exactly on
/// `b`, so segment times stay exact). Both curved forms are `level = A + (level₀ − A)·rⁿ` for a
/// fixed asymptote A and ratio r = e^(∓k/n), so the envelope runs them as a one-pole recursion —
/// one multiply-add per frame, the cost of the linear ramp.
public enum EnvelopeCurve: UInt8, Sendable, Equatable, CaseIterable {
    case linear, convex, concave

    /// k: how far the exponential runs over one segment (ln 100: 40 dB).
    /// A literal, not `log(100.0)`: a computed static would be lazily initialised behind a lock on
    /// the render thread.
    public static let steepness = 4.605_170_185_988_092

    /// The normalised shape at progress `p` ∈ 0…1 (0 at p = 0, 1 at p = 1): the reference the
    /// recursion is tested against.
    public func shape(_ p: Double) -> Double {
        let k = Self.steepness
        switch self {
        case .linear: return p
        case .convex: return (1 - exp(-k * p)) / (1 - exp(-k))
        case .concave: return (exp(k * p) - 1) / (exp(k) - 1)
        }
    }
}

/// A DAHDSR amplitude envelope with linear, convex or concave segments (`EnvelopeCurve`; times are
/// exact: attack reaches 1 after `attackSeconds`; release reaches 0 `releaseSeconds` after note-off
/// from whatever level it was at),
/// followed by a 0.25 ms one-pole smoother so the corners between segments never click, even for the
/// fast fade used when a voice is stolen. Render-thread safe value type.
public struct Envelope {
    @frozen public enum Stage: UInt8 { case idle, delay, attack, hold, decay, sustain, release }

    public internal(set) var stage: Stage = .idle
    /// Unsmoothed segment level (Double: a curved segment's recursion runs for up to minutes).
    @usableFromInline var level: Double = 0
    /// Smoothed output level.
    public internal(set) var output: Float = 0
    /// This segment's recursion: level ← level·multiplier + addend (multiplier 1 for a linear ramp).
    @usableFromInline var multiplier: Double = 1
    @usableFromInline var addend: Double = 0
    @usableFromInline var framesLeft = 0
    private var timing: (delay: Int, attack: Int, hold: Int, decay: Int, release: Int) = (0, 1, 0, 1, 1)
    private var curves: (attack: EnvelopeCurve, decay: EnvelopeCurve, release: EnvelopeCurve) = (.linear, .linear, .linear)
    private var sustain = 1.0
    private let sampleRate: Double
    @usableFromInline let smoothing: Float

    /// Corners are rounded with this time constant; it delays every segment by about this much.
    public static let cornerSmoothingSeconds = 0.00025

    public init(sampleRate: Double, settings: EnvelopeSettings = EnvelopeSettings()) {
        self.sampleRate = sampleRate
        smoothing = Float(1 - exp(-1 / (Self.cornerSmoothingSeconds * sampleRate)))
        configure(settings)
    }

    /// Applies new times; a running stage keeps its current slope until it ends.
    @_noAllocation
    public mutating func configure(_ s: EnvelopeSettings) {
        // Saturating: callers bound their times, but Int(huge or NaN) would trap on the render thread.
        func frames(_ seconds: Double) -> Int { Self.frameCount(seconds * sampleRate) }
        timing = (frames(s.delaySeconds), max(1, frames(s.attackSeconds)), frames(s.holdSeconds),
                  max(1, frames(s.decaySeconds)), max(1, frames(s.releaseSeconds)))
        sustain = min(max(s.sustainLevel, 0), 1)
        curves = (s.attackCurve, s.decayCurve, s.releaseCurve)
    }

    /// Frames for a product of seconds and rate, limited to 0…2³¹ (over 12 hours at 48 kHz); NaN gives 0.
    static func frameCount(_ frames: Double) -> Int {
        frames.isNaN ? 0 : Int(min(max(RealTimeMath.round(frames), 0), Double(Int32.max)))
    }

    public var isIdle: Bool { @_noAllocation get { stage == .idle && output < 1e-6 } }
    public var isReleasing: Bool { @_noAllocation get { stage == .release || (stage == .idle && output >= 1e-6) } }

    /// Starts (or restarts, from the current level: no jump) the envelope.
    @_noAllocation
    public mutating func noteOn() {
        if timing.delay > 0 && level == 0 {
            enter(.delay, frames: timing.delay, toward: 0)
        } else {
            startAttack()
        }
    }

    /// Enters the release from the current level; silence after the release time.
    @_noAllocation
    public mutating func noteOff() {
        guard stage != .idle && stage != .release else { return }
        enter(.release, frames: timing.release, toward: 0, curve: curves.release)
    }

    /// Fades to silence in `seconds` (voice stealing, all-sound-off); click-free.
    @_noAllocation
    public mutating func fastRelease(seconds: Double = 0.003) {
        guard stage != .idle else { return }
        enter(.release, frames: max(1, Self.frameCount(seconds * sampleRate)), toward: 0)
    }

    @_noAllocation
    public mutating func reset() {
        stage = .idle
        level = 0
        output = 0
        framesLeft = 0
    }

    private mutating func startAttack() {
        // Keep the attack's rate: from level L the remaining rise takes (1 − L) × attack.
        let frames = max(1, Int(RealTimeMath.round(Double(timing.attack) * (1 - level))))
        enter(.attack, frames: frames, toward: 1, curve: curves.attack)
    }

    /// Sets up the recursion that takes `level` to `goal` in `frames` along `curve` (see
    /// `EnvelopeCurve` for the formula; A is the curve's asymptote, r its per-frame ratio).
    private mutating func enter(_ s: Stage, frames: Int, toward goal: Double, curve: EnvelopeCurve = .linear) {
        stage = s
        framesLeft = frames
        let n = Double(max(frames, 1))
        let k = EnvelopeCurve.steepness
        let span = goal - level
        switch curve {
        case _ where span == 0, .linear:
            multiplier = 1
            addend = span / n
        case .convex:
            multiplier = exp(-k / n)
            addend = (1 - multiplier) * (level + span / (1 - exp(-k)))
        case .concave:
            multiplier = exp(k / n)
            addend = (1 - multiplier) * (level - span / (exp(k) - 1))
        }
    }

    @usableFromInline mutating func endStage() {
        switch stage {
        case .delay: startAttack()
        case .attack:
            level = 1
            if timing.hold > 0 {
                enter(.hold, frames: timing.hold, toward: 1)
            } else {
                enter(.decay, frames: timing.decay, toward: sustain, curve: curves.decay)
            }
        case .hold: enter(.decay, frames: timing.decay, toward: sustain, curve: curves.decay)
        case .decay:
            level = sustain
            stage = .sustain
            (multiplier, addend) = (1, 0)
            framesLeft = Int.max
        case .release:
            level = 0
            stage = .idle
            (multiplier, addend) = (1, 0)
        case .sustain, .idle: break
        }
    }

    /// Next output level, one frame later.
    @inlinable
    @_noAllocation
    public mutating func next() -> Float {
        advance()
        return output
    }

    @usableFromInline
    mutating func advance() {
        if stage != .idle && stage != .sustain {
            level = level * multiplier + addend
            framesLeft -= 1
            if framesLeft <= 0 { endStage() }
        }
        output += smoothing * (Float(level) - output)
    }

    /// Writes `frames` successive levels to `levels`.
    @_noAllocation
    public mutating func render(into levels: UnsafeMutablePointer<Float>, frames: Int) {
        for i in 0..<frames { levels[i] = next() }
    }
}
