/// Moves a value linearly to a new target over a fixed time, so parameter changes never step.
/// Render-thread safe value type; set `target` from the render thread at block start.
public struct LinearSmoother {
    public internal(set) var current: Float
    public internal(set) var target: Float
    @usableFromInline var step: Float = 0
    @usableFromInline var remaining = 0
    @usableFromInline let rampFrames: Int

    /// `rampSeconds` of 5–20 ms keeps gain and cutoff changes inaudible as zipper noise.
    public init(value: Float, sampleRate: Double, rampSeconds: Double = 0.010) {
        current = value
        target = value
        rampFrames = max(1, Int(sampleRate * rampSeconds))
    }

    /// Starts a ramp from the current value to `value` (no-op when already heading there).
    @inlinable
    @_noAllocation
    public mutating func setTarget(_ value: Float) {
        if value == target { return }
        retarget(value)
    }

    /// Starts a ramp to `value` lasting `frames` frames instead of the default ramp time.
    @_noAllocation
    public mutating func setTarget(_ value: Float, overFrames frames: Int) {
        retarget(value, frames: max(1, frames))
    }

    @usableFromInline
    mutating func retarget(_ value: Float, frames: Int? = nil) {
        let n = frames ?? rampFrames
        target = value
        remaining = n
        step = (value - current) / Float(n)
    }

    /// Jumps to `value` at once (prepare time, reset).
    @_noAllocation
    public mutating func snap(to value: Float) {
        current = value
        target = value
        remaining = 0
        step = 0
    }

    public var isRamping: Bool { @_noAllocation get { remaining > 0 } }

    /// Next value, one frame later.
    @inlinable
    @_noAllocation
    public mutating func next() -> Float {
        if remaining > 0 { advanceOne() }
        return current
    }

    @usableFromInline
    mutating func advanceOne() {
        remaining -= 1
        current = remaining == 0 ? target : current + step
    }

    /// Moves `frames` frames along at once (for values applied once per block, such as filter
    /// coefficients recomputed at block start).
    @_noAllocation
    public mutating func advance(by frames: Int) {
        guard remaining > 0 else { return }
        let n = min(max(frames, 0), remaining)
        remaining -= n
        current = remaining == 0 ? target : current + step * Float(n)
    }

    /// Multiplies `frames` samples at `buffer` by the smoothed value.
    @inlinable
    @_noAllocation
    public mutating func applyGain(to buffer: UnsafeMutablePointer<Float>, frames: Int) {
        if remaining == 0 {
            let g = current
            if g == 1 { return }
            for i in 0..<frames { buffer[i] *= g }
            return
        }
        for i in 0..<frames { buffer[i] *= next() }
    }
}
