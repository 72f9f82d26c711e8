/// Direct-form FIR convolution (mono): y[n] = Σ h[k]·x[n−k]. The history is stored twice in a
/// row so each output is one contiguous dot product (no wrap-around inside the loop).
/// Taps are passed per call, so a caller can blend two kernels while a new one fades in.
/// Render-thread safe after init.
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
        DotProduct.dot(taps, UnsafePointer(history + position), count: tapCount)
    }

    /// Filters one sample with `taps` (`tapCount` values). Render-thread safe.
    @inlinable
    @_noAllocation
    public func process(_ x: Float, taps: UnsafePointer<Float>) -> Float {
        push(x)
        return dot(taps)
    }

    /// Filters one sample with two kernels at once (for crossfading between them). Render-thread safe.
    @inlinable
    @_noAllocation
    public func process(_ x: Float, taps a: UnsafePointer<Float>, _ b: UnsafePointer<Float>) -> (Float, Float) {
        push(x)
        return (dot(a), dot(b))
    }

    /// Filters `count` samples from `input` into `output` (may alias) with one kernel, the
    /// write position held in a register for the block. Render-thread safe.
    @_noAllocation
    public func process(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, count: Int, taps: UnsafePointer<Float>) {
        let n = tapCount, h = history
        var p = position
        for i in 0..<count {
            p = p == 0 ? n - 1 : p - 1
            let x = input[i]
            h[p] = x
            h[p + n] = x
            output[i] = DotProduct.dot(taps, UnsafePointer(h + p), count: n)
        }
        position = p
    }

    @_noAllocation
    public func reset() {
        history.update(repeating: 0, count: 2 * tapCount)
    }
}

/// The FIR's inner product.
@usableFromInline enum DotProduct {
    /// Σ a[k]·b[k], eight lanes at a time (the compiler will not reorder a Float sum by itself).
    @inlinable
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        var lanes = SIMD8<Float>()
        var k = 0
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        while k + 8 <= count {
            let va = ra.loadUnaligned(fromByteOffset: k * 4, as: SIMD8<Float>.self)
            let vb = rb.loadUnaligned(fromByteOffset: k * 4, as: SIMD8<Float>.self)
            lanes += va * vb
            k += 8
        }
        var acc = lanes.sum()
        while k < count {
            acc += a[k] * b[k]
            k += 1
        }
        return acc
    }
}
