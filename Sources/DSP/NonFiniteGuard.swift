/// Keeps NaN, infinity and runaway values out of the mix. One non-finite sample means the unit
/// that made it is poisoned (a filter fed NaN outputs NaN for ever after); a sample beyond
/// `maximumMagnitude` (+80 dBFS) is no sound an instrument makes but a unit running away (an
/// unstable filter grows exponentially, finite for many blocks before it overflows, and far past
/// what the master limiter's float arithmetic can pull back). Either way the whole block is
/// silenced and the caller resets that unit and counts the event. Render-thread safe: one pass,
/// no allocation.
public enum NonFiniteGuard {
    /// Largest magnitude a healthy unit's sample can have: +80 dBFS, far above any sum of voices
    /// at their clamped gains.
    public static let maximumMagnitude: Float = 10_000

    /// Silences `block` and returns true when any sample in it is NaN, infinite or beyond
    /// `maximumMagnitude`.
    @inlinable
    @_noAllocation
    public static func scrub(_ block: StereoBlock) -> Bool {
        // x * 0 is 0 for every finite x and NaN otherwise, so one sum tells (and vectorizes);
        // the peak catches the rest (max() would drop a NaN, hence both).
        var probe: Float = 0
        var peak: Float = 0
        for i in 0..<block.frames {
            let l = block.left[i], r = block.right[i]
            probe += l * 0 + r * 0
            peak = max(peak, max(abs(l), abs(r)))
        }
        guard probe.isNaN || peak > maximumMagnitude else { return false }
        block.clear()
        return true
    }
}
