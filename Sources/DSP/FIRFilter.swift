/// Direct-form FIR convolution (mono): y[n] = Σ h[k]·x[n−k]. The history is stored twice in a
/// row so each output is one contiguous dot product (no wrap-around inside the loop).
/// Taps are passed per call, so a caller can blend two kernels while a new one fades in.
/// RT-safe after init.
public final class FIRFilter {
    public let tapCount: Int
    @usableFromInline let history: UnsafeMutablePointer<Float>
    @usableFromInline var position = 0

    public init(tapCount: Int) {
        precondition(tapCount > 0, "an FIR needs at least one tap")
        self.tapCount = tapCount
        history = .allocate(capacity: 2 * tapCount)
        history.initialize(repeating: 0, count: 2 * tapCount)
    }

    deinit { history.deallocate() }

    /// Pushes `x`; afterwards `history[position + k]` holds x[n−k] for k in 0..<tapCount.
    @inlinable
    func push(_ x: Float) {
        position = position == 0 ? tapCount - 1 : position - 1
        history[position] = x
        history[position + tapCount] = x
    }

    @inlinable
    func dot(_ taps: UnsafePointer<Float>) -> Float {
        let h = history + position
        var acc: Float = 0
        for k in 0..<tapCount { acc += taps[k] * h[k] }
        return acc
    }

    /// Filters one sample with `taps` (`tapCount` values). RT-safe.
    @inlinable
    public func process(_ x: Float, taps: UnsafePointer<Float>) -> Float {
        push(x)
        return dot(taps)
    }

    /// Filters one sample with two kernels at once (for crossfading between them). RT-safe.
    @inlinable
    public func process(_ x: Float, taps a: UnsafePointer<Float>, _ b: UnsafePointer<Float>) -> (Float, Float) {
        push(x)
        return (dot(a), dot(b))
    }

    public func reset() {
        history.update(repeating: 0, count: 2 * tapCount)
    }
}
