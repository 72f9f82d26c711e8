import Synchronization

/// A fixed number of independent word-sized atomics in one allocation (the standard library's
/// `Atomic` is non-copyable, so it cannot live in an array). Counters and codes are stored as
/// `Int`, Double readouts as their bit pattern. Any thread; every access is one relaxed,
/// lock-free operation.
///
/// `@unchecked Sendable`: the storage is reached only through atomic operations; the pointer itself
/// never changes.
final class AtomicCells: @unchecked Sendable {
    let count: Int
    /// The cells as a plain view: what the owners' render-thread paths use (calling this object
    /// from another object's stored property would retain and release it).
    let view: AtomicCellsView

    init(count: Int, initial: (Int) -> Int) {
        self.count = count
        let cells = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: max(count, 1))
        for i in 0..<count { (cells + i).initialize(to: Atomic(initial(i))) }
        view = AtomicCellsView(cells: cells)
    }

    convenience init(count: Int, repeating value: Int) { self.init(count: count) { _ in value } }

    deinit {
        view.cells.deinitialize(count: count)
        view.cells.deallocate()
    }
}

/// `AtomicCells`' storage, valid while the cells object lives. Any thread.
///
/// `@unchecked Sendable`: a pointer to atomics, used only through atomic operations.
struct AtomicCellsView: @unchecked Sendable {
    let cells: UnsafeMutablePointer<Atomic<Int>>

    @_noAllocation func load(_ i: Int) -> Int { cells[i].load(ordering: .relaxed) }
    @_noAllocation func store(_ i: Int, _ value: Int) { cells[i].store(value, ordering: .relaxed) }
    @_noAllocation func increment(_ i: Int) { cells[i].wrappingAdd(1, ordering: .relaxed) }

    @_noAllocation func loadDouble(_ i: Int) -> Double { Double(bitPattern: UInt64(UInt(bitPattern: load(i)))) }
    @_noAllocation func store(_ i: Int, _ value: Double) { store(i, Int(bitPattern: UInt(value.bitPattern))) }
}
