import Synchronization

/// A bounded single-producer / single-consumer ring of plain values: the sequencer thread pushes,
/// the render thread pops. Never blocks, never allocates after init; a full ring drops the new
/// value and counts it (the producer never waits on the render thread). Elements are
/// `BitwiseCopyable`: a slot is overwritten and read by plain copies, with nothing to retain or
/// release on either thread.
///
/// `@unchecked Sendable`: each slot is written only by the producer before its releasing store of
/// `tail`, and read only by the consumer after its acquiring load of it (and the reverse for `head`).
public final class EventRing<Element: BitwiseCopyable>: @unchecked Sendable {
    /// The consumer's side as a plain value (what the render path keeps and calls: a call on this
    /// object, held in another's stored property, would retain it).
    public let consumer: RingConsumer<Element>
    private let capacity: Int
    private let dropped = Atomic<Int>(0)

    /// `capacity` is rounded up to a power of two.
    public init(capacity: Int, filler: Element) {
        var c = 1
        while c < capacity { c <<= 1 }
        self.capacity = c
        let slots = UnsafeMutablePointer<Element>.allocate(capacity: c)
        slots.initialize(repeating: filler, count: c)
        let indices = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 2)
        indices.initialize(to: Atomic(0))
        (indices + 1).initialize(to: Atomic(0))
        consumer = RingConsumer(slots: slots, mask: c - 1, head: indices, tail: indices + 1)
    }

    deinit {
        consumer.slots.deallocate()
        consumer.head.deinitialize(count: 2)
        consumer.head.deallocate()
    }

    /// Producer thread. Returns false when the ring is full, counting a drop unless the caller
    /// will try again (`retrying`).
    @discardableResult
    public func push(_ value: Element, retrying: Bool = false) -> Bool {
        let t = consumer.tail.pointee.load(ordering: .relaxed)
        if t &- consumer.head.pointee.load(ordering: .acquiring) >= capacity {
            if !retrying { dropped.wrappingAdd(1, ordering: .relaxed) }
            return false
        }
        consumer.slots[t & consumer.mask] = value
        consumer.tail.pointee.store(t &+ 1, ordering: .releasing)
        return true
    }

    /// Consumer thread: the oldest value, or nil when empty.
    public func pop() -> Element? { consumer.pop() }

    /// Consumer thread: the oldest value without removing it.
    public func peek() -> Element? { consumer.peek() }

    /// Values waiting (exact on the consumer thread; a recent value elsewhere).
    public var count: Int { consumer.tail.pointee.load(ordering: .acquiring) &- consumer.head.pointee.load(ordering: .relaxed) }

    public var droppedCount: Int { dropped.load(ordering: .relaxed) }
}

/// An `EventRing`'s consumer side, valid while the ring lives. Consumer thread; checked by the
/// compiler where the render path calls it (`PeriodEvents.collect`: a generic function is checked
/// in its specialisation, not generically).
public struct RingConsumer<Element: BitwiseCopyable> {
    let slots: UnsafeMutablePointer<Element>
    let mask: Int
    /// Next slot to read, written by the consumer; next slot to write, written by the producer.
    let head: UnsafeMutablePointer<Atomic<Int>>
    let tail: UnsafeMutablePointer<Atomic<Int>>

    /// The oldest value, or nil when empty.
    public func pop() -> Element? {
        let h = head.pointee.load(ordering: .relaxed)
        guard h != tail.pointee.load(ordering: .acquiring) else { return nil }
        let value = slots[h & mask]
        head.pointee.store(h &+ 1, ordering: .releasing)
        return value
    }

    /// The oldest value without removing it.
    public func peek() -> Element? {
        let h = head.pointee.load(ordering: .relaxed)
        guard h != tail.pointee.load(ordering: .acquiring) else { return nil }
        return slots[h & mask]
    }
}
