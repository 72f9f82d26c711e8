#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// CLOCK_MONOTONIC in nanoseconds: the time base for MIDI arrival stamps and the
/// paced device. Any thread; no allocation, one vDSO call.
public enum MonotonicClock {
    @_noAllocation
    public static func nanoseconds() -> UInt64 {
        let now = RenderThreadCalls.monotonicNow()
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }

    @_noAllocation
    static func timespecFrom(nanoseconds: UInt64) -> timespec {
        var result = timespec()
        result.tv_sec = Int(nanoseconds / 1_000_000_000)
        result.tv_nsec = Int(nanoseconds % 1_000_000_000)
        return result
    }
}
