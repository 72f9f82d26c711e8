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

    public init(
        delaySeconds: Double = 0, attackSeconds: Double = 0.005, holdSeconds: Double = 0,
        decaySeconds: Double = 0.1, sustainLevel: Double = 0.8, releaseSeconds: Double = 0.2
    ) {
        self.delaySeconds = delaySeconds
        self.attackSeconds = attackSeconds
        self.holdSeconds = holdSeconds
        self.decaySeconds = decaySeconds
        self.sustainLevel = sustainLevel
        self.releaseSeconds = releaseSeconds
    }
}

/// A DAHDSR amplitude envelope with linear segments (times are exact: attack reaches 1 after
/// `attackSeconds`; release reaches 0 `releaseSeconds` after note-off from whatever level it was at),
/// followed by a 0.25 ms one-pole smoother so the corners between segments never click, even for the
/// fast fade used when a voice is stolen. RT-safe value type.
public struct Envelope {
    @frozen public enum Stage: UInt8 { case idle, delay, attack, hold, decay, sustain, release }

    public internal(set) var stage: Stage = .idle
    /// Unsmoothed segment level.
    @usableFromInline var level: Float = 0
    /// Smoothed output level.
    public internal(set) var output: Float = 0
    @usableFromInline var slope: Float = 0
    @usableFromInline var framesLeft = 0
    private var timing: (delay: Int, attack: Int, hold: Int, decay: Int, release: Int) = (0, 1, 0, 1, 1)
    private var sustain: Float = 1
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
    @_noLocks
    public mutating func configure(_ s: EnvelopeSettings) {
        // Saturating: callers bound their times, but Int(huge or NaN) would trap on the audio thread.
        func frames(_ seconds: Double) -> Int { Self.frameCount(seconds * sampleRate) }
        timing = (frames(s.delaySeconds), max(1, frames(s.attackSeconds)), frames(s.holdSeconds),
                  max(1, frames(s.decaySeconds)), max(1, frames(s.releaseSeconds)))
        sustain = Float(min(max(s.sustainLevel, 0), 1))
    }

    /// Frames for a product of seconds and rate, limited to 0…2³¹ (over 12 hours at 48 kHz); NaN gives 0.
    static func frameCount(_ frames: Double) -> Int {
        frames.isNaN ? 0 : Int(min(max(RealTimeMath.round(frames), 0), Double(Int32.max)))
    }

    public var isIdle: Bool { @_noLocks get { stage == .idle && output < 1e-6 } }
    public var isReleasing: Bool { @_noLocks get { stage == .release || (stage == .idle && output >= 1e-6) } }

    /// Starts (or restarts, from the current level: no jump) the envelope.
    @_noLocks
    public mutating func noteOn() {
        if timing.delay > 0 && level == 0 {
            enter(.delay, frames: timing.delay, toward: 0)
        } else {
            startAttack()
        }
    }

    /// Enters the release from the current level; silence after the release time.
    @_noLocks
    public mutating func noteOff() {
        guard stage != .idle && stage != .release else { return }
        enter(.release, frames: timing.release, toward: 0)
    }

    /// Fades to silence in `seconds` (voice stealing, all-sound-off); click-free.
    @_noLocks
    public mutating func fastRelease(seconds: Double = 0.003) {
        guard stage != .idle else { return }
        enter(.release, frames: max(1, Self.frameCount(seconds * sampleRate)), toward: 0)
    }

    @_noLocks
    public mutating func reset() {
        stage = .idle
        level = 0
        output = 0
        framesLeft = 0
    }

    private mutating func startAttack() {
        // Keep the attack's rate: from level L the remaining rise takes (1 − L) × attack.
        let frames = max(1, Int(RealTimeMath.round(Float(timing.attack) * (1 - level))))
        enter(.attack, frames: frames, toward: 1)
    }

    private mutating func enter(_ s: Stage, frames: Int, toward goal: Float) {
        stage = s
        framesLeft = frames
        slope = (goal - level) / Float(max(frames, 1))
    }

    @usableFromInline mutating func endStage() {
        switch stage {
        case .delay: startAttack()
        case .attack:
            level = 1
            if timing.hold > 0 { enter(.hold, frames: timing.hold, toward: 1) } else { enter(.decay, frames: timing.decay, toward: sustain) }
        case .hold: enter(.decay, frames: timing.decay, toward: sustain)
        case .decay:
            level = sustain
            stage = .sustain
            slope = 0
            framesLeft = Int.max
        case .release:
            level = 0
            stage = .idle
            slope = 0
        case .sustain, .idle: break
        }
    }

    /// Next output level, one frame later.
    @inlinable
    @_noLocks
    public mutating func next() -> Float {
        advance()
        return output
    }

    @usableFromInline
    mutating func advance() {
        if stage != .idle && stage != .sustain {
            level += slope
            framesLeft -= 1
            if framesLeft <= 0 { endStage() }
        }
        output += smoothing * (level - output)
    }

    /// Writes `frames` successive levels to `levels`.
    @_noLocks
    public mutating func render(into levels: UnsafeMutablePointer<Float>, frames: Int) {
        for i in 0..<frames { levels[i] = next() }
    }
}
