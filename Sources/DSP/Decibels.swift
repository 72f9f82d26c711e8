#if canImport(Glibc)
import Glibc
#endif

/// Conversions between decibels and linear gain. −inf dB is represented as gain 0.
public enum Decibels {
    /// Gain for `decibels`; anything at or below −144 dB is silence.
    @inlinable
    @_noAllocation
    public static func gain(_ decibels: Double) -> Double {
        decibels <= -144 ? 0 : pow(10, decibels / 20)
    }

    @inlinable
    @_noAllocation
    public static func fromGain(_ gain: Double) -> Double {
        gain > 1e-8 ? 20 * log10(gain) : -160
    }
}

/// Equal-power (−3 dB at centre) pan law: pan −1 = hard left, 0 = centre, +1 = hard right.
public enum PanLaw {
    @inlinable
    @_noAllocation
    public static func gains(pan: Double) -> (left: Double, right: Double) {
        let p = min(max(pan, -1), 1)
        let angle = (p + 1) * Double.pi / 4
        return (cos(angle), sin(angle))
    }
}
