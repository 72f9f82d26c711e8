import MallocInterposerSwift

/// Counts heap allocations made while `body` runs. The interposer's counters are process-wide,
/// so these tests use XCTest (which runs them one at a time on one thread) and run on their own
/// (`swift test --filter RealTimeSafetyTests`); real-time claims are judged on release builds.
enum AllocationCounter {
    static func count(_ body: () -> Void) -> Int {
        MallocInterposerSwift.initialize()
        MallocInterposerSwift.hook()
        body()
        MallocInterposerSwift.unhook()
        return MallocInterposerSwift.getStatistics().mallocCount
    }

    /// The interposer must really be counting, or a zero proves nothing.
    static func sanityCheck() -> Int {
        count {
            let p = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
            blackHole(p)
            p.deallocate()
        }
    }

    @inline(never)
    static func blackHole(_ p: UnsafeMutableRawPointer) {
        p.storeBytes(of: 1, as: UInt8.self)
    }
}
