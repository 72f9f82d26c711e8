#if canImport(Glibc)
import Glibc
#endif

/// A raised-cosine crossfade from 0 to 1 over a fixed number of frames. Its slope is zero at both
/// ends, so fading between two correlated signals (two delay taps, two filters) adds no corner
/// that the third difference would show as a click. Render-thread safe value type.
public struct Crossfade {
    /// Frames a full fade takes.
    public let lengthFrames: Int
    @usableFromInline var position = 0
    @usableFromInline var active = false
    /// One quarter-period table would do; a direct cosine per frame is cheap enough and exact.
    @usableFromInline let phaseStep: Double

    /// `seconds` of 10–30 ms is inaudible as a switch and still short.
    public init(sampleRate: Double, seconds: Double = 0.020) {
        lengthFrames = max(1, Int((sampleRate * seconds).rounded()))
        phaseStep = Double.pi / Double(lengthFrames)
    }

    /// True while a fade runs.
    @inlinable public var isActive: Bool { active }

    /// Starts a fade at gain 0 (the new signal silent).
    @_noAllocation
    public mutating func start() {
        position = 0
        active = true
    }

    /// Gain of the new signal for the next frame (the old one gets 1 − gain); ends at exactly 1.
    @inlinable
    @_noAllocation
    public mutating func next() -> Float {
        guard active else { return 1 }
        position &+= 1
        if position >= lengthFrames {
            active = false
            return 1
        }
        return Float(0.5 - 0.5 * cos(phaseStep * Double(position)))
    }

    /// Stops any fade (the new signal at full gain).
    @_noAllocation
    public mutating func finish() { active = false }
}
