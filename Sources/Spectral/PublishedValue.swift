import DSP
import Synchronization

/// A Float handed from the render thread to the control thread: the render thread `store`s,
/// any thread `load`s. Lock-free (the bits travel in one atomic word), never torn.
public final class PublishedFloat: Sendable {
    private let bits: Atomic<UInt32>

    public init(_ value: Float = 0) {
        bits = Atomic(value.bitPattern)
    }

    /// Render-thread safe.
    @inlinable public func store(_ value: Float) { storeBits(value.bitPattern) }

    /// Any thread.
    public var value: Float { @_noAllocation get { Float(bitPattern: bits.load(ordering: .relaxed)) } }

    @usableFromInline @_noAllocation func storeBits(_ b: UInt32) { bits.store(b, ordering: .relaxed) }
}

/// A `PitchEstimate` handed from the render thread to the control thread in one atomic 64-bit
/// word (frequency as Float bits, confidence in 1/65535 steps, voiced flag), so the three
/// fields always belong to the same analysis frame.
public final class PublishedPitch: Sendable {
    private let word = Atomic<UInt64>(0)

    public init() {}

    /// Render-thread safe.
    @_noAllocation
    public func store(_ e: PitchEstimate) {
        let f = UInt64(Float(e.frequencyHz).bitPattern)
        let c = UInt64(RealTimeMath.round(min(max(e.confidence, 0), 1) * 65535))
        word.store(f | c << 32 | (e.voiced ? 1 << 48 : 0), ordering: .relaxed)
    }

    /// Any thread.
    public var value: PitchEstimate {
        @_noAllocation get {
            let w = word.load(ordering: .relaxed)
            return PitchEstimate(
                frequencyHz: Double(Float(bitPattern: UInt32(truncatingIfNeeded: w))),
                confidence: Double((w >> 32) & 0xFFFF) / 65535,
                voiced: (w >> 48) & 1 == 1)
        }
    }
}
