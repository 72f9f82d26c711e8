import Synchronization

/// A bounded single-producer / single-consumer ring of plain values: the sequencer thread pushes,
/// the render thread pops. Never blocks, never allocates after init; a full ring drops the new
/// value and counts it (the producer never waits on the render thread). `package`: AppTests drives it.
package final class EventRing<Element>: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<Element>
    private let capacity: Int
    private let head = Atomic<Int>(0)  // next slot to read; written by the consumer
    private let tail = Atomic<Int>(0)  // next slot to write; written by the producer
    private let dropped = Atomic<Int>(0)

    /// `capacity` is rounded up to a power of two.
    package init(capacity: Int, filler: Element) {
        var c = 1
        while c < capacity { c <<= 1 }
        self.capacity = c
        slots = .allocate(capacity: c)
        slots.initialize(repeating: filler, count: c)
    }

    deinit { slots.deallocate() }

    /// Producer thread. Returns false when the ring is full, counting a drop unless the caller
    /// will try again (`retrying`).
    @discardableResult
    package func push(_ value: Element, retrying: Bool = false) -> Bool {
        let t = tail.load(ordering: .relaxed)
        if t &- head.load(ordering: .acquiring) >= capacity {
            if !retrying { dropped.wrappingAdd(1, ordering: .relaxed) }
            return false
        }
        slots[t & (capacity - 1)] = value
        tail.store(t &+ 1, ordering: .releasing)
        return true
    }

    /// Consumer thread: the oldest value, or nil when empty.
    package func pop() -> Element? {
        let h = head.load(ordering: .relaxed)
        guard h != tail.load(ordering: .acquiring) else { return nil }
        let value = slots[h & (capacity - 1)]
        head.store(h &+ 1, ordering: .releasing)
        return value
    }

    /// Consumer thread: the oldest value without removing it.
    package func peek() -> Element? {
        let h = head.load(ordering: .relaxed)
        guard h != tail.load(ordering: .acquiring) else { return nil }
        return slots[h & (capacity - 1)]
    }

    /// Values waiting (exact on the consumer thread; a recent value elsewhere).
    package var count: Int { tail.load(ordering: .acquiring) &- head.load(ordering: .relaxed) }

    package var droppedCount: Int { dropped.load(ordering: .relaxed) }
}
