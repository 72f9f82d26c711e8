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
        // x * 0 is 0 for every finite x and NaN otherwise, so one sum tells; the peak catches
        // the rest (a max drops a NaN, hence both). Four lanes at a time: a scalar sum is a chain
        // the optimiser may not reorder, one frame per iteration.
        var probes = SIMD4<Float>()
        var i = 0
        while i &+ 4 <= block.frames {
            let l = UnsafeRawPointer(block.left + i).loadUnaligned(as: SIMD4<Float>.self)
            let r = UnsafeRawPointer(block.right + i).loadUnaligned(as: SIMD4<Float>.self)
            probes += l * 0 + r * 0
            i &+= 4
        }
        var probe = probes.sum()
        while i < block.frames {
            probe += block.left[i] * 0 + block.right[i] * 0
            i &+= 1
        }
        let peak = BlockPeak.of(block)
        guard probe.isNaN || peak > maximumMagnitude else { return false }
        block.clear()
        return true
    }
}
