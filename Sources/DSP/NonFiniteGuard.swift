/// Keeps NaN and infinity out of the mix. One non-finite sample means the unit that made it is
/// poisoned (a filter fed NaN outputs NaN for ever after), so the whole block is silenced and the
/// caller resets that unit and counts the event. Render-thread safe: one pass, no allocation.
public enum NonFiniteGuard {
    /// Silences `block` and returns true when any sample in it is NaN or infinite.
    @inlinable
    @_noLocks
    public static func scrub(_ block: StereoBlock) -> Bool {
        // x * 0 is 0 for every finite x and NaN otherwise, so one sum tells (and vectorizes).
        var probe: Float = 0
        for i in 0..<block.frames { probe += block.left[i] * 0 + block.right[i] * 0 }
        guard probe.isNaN else { return false }
        block.clear()
        return true
    }
}
