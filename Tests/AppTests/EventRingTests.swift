import LiveLoop
import Foundation
import Testing

/// The live loop's lock-free MIDI ring, driven the way the sequencer and render threads drive it.
@Suite struct EventRingTests {
    /// A sequence number and a value derived from it: a torn or stale slot shows as a mismatch.
    struct Stamped: Equatable {
        var sequence: Int
        var check: Int
        init(_ sequence: Int) {
            self.sequence = sequence
            check = sequence ^ 0x5A5A_5A5A
        }
    }

    /// One thread: a full ring refuses the value, counts it, and keeps everything it already held in
    /// order; `capacity` is rounded up to a power of two.
    @Test func fullRingDropsAndCountsTheNewValue() {
        let ring = EventRing<Stamped>(capacity: 1000, filler: Stamped(-1))
        let accepted = (0..<1030).filter { ring.push(Stamped($0)) }
        #expect(accepted == Array(0..<1024), "capacity 1000 rounds up to 1024")
        #expect(ring.droppedCount == 6)
        #expect(ring.peek() == Stamped(0))
        var popped: [Int] = []
        while let value = ring.pop() { popped.append(value.sequence) }
        #expect(popped == Array(0..<1024))
        #expect(ring.pop() == nil && ring.peek() == nil)
    }

    /// Two threads, 1,000,000 sequenced values through a 64-slot ring: the consumer sees every value
    /// exactly once, in order, untorn; every push the full ring refused is counted as a drop (the
    /// producer retries it, so nothing is lost).
    @Test func twoThreadsPassOneMillionValuesInOrder() {
        let count = 1_000_000
        let ring = EventRing<Stamped>(capacity: 64, filler: Stamped(-1))
        let done = DispatchGroup()
        nonisolated(unsafe) var refused = 0
        nonisolated(unsafe) var received = 0
        nonisolated(unsafe) var firstError: String?
        let producer = Thread {
            for n in 0..<count {
                while !ring.push(Stamped(n)) {
                    refused += 1
                    sched_yield()
                }
            }
            done.leave()
        }
        let consumer = Thread {
            while received < count {
                guard let value = ring.pop() else {
                    sched_yield()
                    continue
                }
                if firstError == nil && value != Stamped(received) {
                    firstError = "value \(received) arrived as \(value)"
                }
                received += 1
            }
            done.leave()
        }
        done.enter()
        done.enter()
        producer.start()
        consumer.start()
        #expect(done.wait(timeout: .now() + 120) == .success, "the threads finished")
        #expect(firstError == nil, "\(firstError ?? "")")
        #expect(received == count)
        #expect(ring.pop() == nil, "nothing left over or duplicated")
        #expect(ring.droppedCount == refused, "every refused push counted once")
        #expect(refused > 0, "the ring was full at some point (the overflow path ran)")
    }
}
