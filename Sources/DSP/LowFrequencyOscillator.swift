import MemberwiseInit
#if canImport(Glibc)
import Glibc
#endif

/// A low-frequency oscillator for modulation (pitch, cutoff, amplitude, pan), one per voice or
/// per part. The phase is a Double advanced per frame, so the rate holds over hours and a rate
/// change never jumps the phase. Square and saw edges are hard (as AUSampler draws them): the
/// consumer smooths what it modulates. Render-thread safe value type; `start()` at note-on.
public struct LowFrequencyOscillator {
    /// The shapes AUSampler's LFOs offer. Every shape is a function of the phase p ∈ [0, 1) of the
    /// cycle, in −1…1:
    /// sine sin 2πp; triangle 4p, 2 − 4p, 4p − 4 (in phase with the sine: 0 rising at p = 0);
    /// square +1 for p < ½ else −1; saw up 2p − 1; saw down 1 − 2p; sample & hold a new uniform
    /// random value at every cycle start, held for the cycle; random interpolated a straight line
    /// from the last random value to a new one over each cycle.
    public enum Waveform: UInt8, Sendable, CaseIterable {
        case sine, triangle, square, sawUp, sawDown, sampleAndHold, randomInterpolated
    }

    /// Rate, shape and onset.
    @PublicInit
    public struct Settings: Sendable, Equatable {
        public var waveform: Waveform = .triangle
        public var rateHz: Double = 5
        /// After `start()`, the output stays 0 this long; the cycle starts (at p = 0) when it ends.
        public var delaySeconds: Double = 0
        /// Then the depth rises linearly from 0 to 1 over this time.
        public var fadeInSeconds: Double = 0

        public static let rateRange = 0.0...100.0
        public static let onsetRange = 0.0...60.0
    }

    public private(set) var settings: Settings
    public let sampleRate: Double
    var phase = 0.0
    var increment: Double
    /// Frames of delay left, then fade-in frames done out of `fadeFrames`.
    var delayLeft = 0
    var fadeDone = 0
    var fadeFrames = 0
    /// Sample & hold's value; random interpolated runs from `previous` to `held`.
    var held: Float = 0
    var previous: Float = 0
    var random: UInt32

    /// `seed` makes sample & hold repeatable (every random source in this project takes one).
    /// Render-thread safe (a voice starts its LFO at note-on).
    @_noAllocation
    public init(sampleRate: Double, settings: Settings = Settings(), seed: UInt32 = 0x2545_F491) {
        self.sampleRate = sampleRate
        self.settings = settings
        increment = 0
        random = seed == 0 ? 1 : seed
        configure(settings)
        start()
    }

    /// New shape or rate (phase kept) or onset times (used from the next `start()`).
    @_noAllocation
    public mutating func configure(_ s: Settings) {
        settings = s
        increment = Settings.rateRange.clamp(s.rateHz) / sampleRate
    }

    /// Restarts the onset: silent for the delay, then phase 0 and the fade-in.
    @_noAllocation
    public mutating func start() {
        delayLeft = Int(RealTimeMath.round(Settings.onsetRange.clamp(settings.delaySeconds) * sampleRate))
        fadeFrames = Int(RealTimeMath.round(Settings.onsetRange.clamp(settings.fadeInSeconds) * sampleRate))
        fadeDone = 0
        phase = 0
        previous = nextRandom()
        held = nextRandom()
    }

    mutating func nextRandom() -> Float {
        random ^= random << 13
        random ^= random >> 17
        random ^= random << 5
        return Float(random >> 8) / Float(1 << 23) - 1
    }

    /// The shape's value at phase `p` (see `Waveform`).
    func shape(_ p: Double) -> Float {
        switch settings.waveform {
        case .sine: return Float(sin(2 * Double.pi * p))
        case .triangle: return Float(p < 0.25 ? 4 * p : p < 0.75 ? 2 - 4 * p : 4 * p - 4)
        case .square: return p < 0.5 ? 1 : -1
        case .sawUp: return Float(2 * p - 1)
        case .sawDown: return Float(1 - 2 * p)
        case .sampleAndHold: return held
        case .randomInterpolated: return previous + Float(p) * (held - previous)
        }
    }

    /// The next output, one frame later, in −1…1 (times the fade-in depth).
    @_noAllocation
    public mutating func next() -> Float {
        if delayLeft > 0 {
            delayLeft -= 1
            return 0
        }
        let value = shape(phase)
        phase += increment
        if phase >= 1 {
            phase -= RealTimeMath.floor(phase)
            previous = held
            held = nextRandom()
        }
        guard fadeDone < fadeFrames else { return value }
        fadeDone += 1
        return value * Float(fadeDone) / Float(fadeFrames + 1)
    }

    /// What `next()` would return now, without moving on.
    public var current: Float {
        @_noAllocation get {
            if delayLeft > 0 { return 0 }
            let value = shape(phase)
            return fadeDone < fadeFrames ? value * Float(fadeDone + 1) / Float(fadeFrames + 1) : value
        }
    }

    /// Moves on `frames` frames at once, as that many `next()` calls would (a consumer that
    /// updates once per block reads `current` at its ends: one shape evaluation per block).
    @_noAllocation
    public mutating func skip(frames: Int) {
        var frames = max(frames, 0)
        let waiting = min(delayLeft, frames)
        delayLeft -= waiting
        frames -= waiting
        guard frames > 0 else { return }
        fadeDone = min(fadeFrames, fadeDone + frames)
        phase += increment * Double(frames)
        guard phase >= 1 else { return }
        let cycles = RealTimeMath.floor(phase)
        phase -= cycles
        // A new random value per cycle start crossed (at most the last two matter).
        for _ in 0..<Int(min(cycles, 2)) {
            previous = held
            held = nextRandom()
        }
    }

    /// Writes `frames` successive outputs to `values`.
    @_noAllocation
    public mutating func render(into values: UnsafeMutablePointer<Float>, frames: Int) {
        for i in 0..<frames { values[i] = next() }
    }
}
