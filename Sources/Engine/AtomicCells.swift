import Synchronization

/// A fixed number of independent word-sized atomics in one allocation (the standard library's
/// `Atomic` is non-copyable, so it cannot live in an array). Counters and codes are stored as
/// `Int`, Double readouts as their bit pattern. Any thread; every access is one relaxed,
/// lock-free operation.
///
/// Non-copyable, so it owns its storage and frees it with its owner: held in an owner's stored
/// `let`, it is used in place, with no reference to retain or release on the render thread.
/// `@unchecked Sendable`: the storage is reached only through atomic operations; the pointer itself
/// never changes.
struct AtomicCells: ~Copyable, @unchecked Sendable {
    let count: Int
    private let cells: UnsafeMutablePointer<Atomic<Int>>

    init(count: Int, initial: (Int) -> Int) {
        self.count = count
        cells = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: max(count, 1))
        for i in 0..<count { (cells + i).initialize(to: Atomic(initial(i))) }
    }

    init(count: Int, repeating value: Int) { self.init(count: count) { _ in value } }

    deinit {
        cells.deinitialize(count: count)
        cells.deallocate()
    }

    @_noAllocation func load(_ i: Int) -> Int { cells[i].load(ordering: .relaxed) }
    @_noAllocation func store(_ i: Int, _ value: Int) { cells[i].store(value, ordering: .relaxed) }
    @_noAllocation func increment(_ i: Int) { cells[i].wrappingAdd(1, ordering: .relaxed) }

    @_noAllocation func loadDouble(_ i: Int) -> Double { Double(bitPattern: UInt64(UInt(bitPattern: load(i)))) }
    @_noAllocation func store(_ i: Int, _ value: Double) { store(i, Int(bitPattern: UInt(value.bitPattern))) }
}
