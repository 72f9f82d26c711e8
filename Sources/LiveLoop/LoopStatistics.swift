import Synchronization

/// Render-time figures the render thread publishes for the status line, the soak report and a
/// control-thread watchdog. Atomics only; written by the render thread (and the control thread
/// while it renders during an outage), read by any thread.
public final class LoopStatistics: Sendable {
    public let periods = Atomic<Int>(0)
    /// Periods whose render took longer than the period itself.
    public let missedDeadlines = Atomic<Int>(0)
    public let lastRenderNanoseconds = Atomic<UInt64>(0)
    public let worstRenderNanoseconds = Atomic<UInt64>(0)
    /// CLOCK_MONOTONIC time the last period started: a watchdog can tell a driver stuck in a device
    /// call (a write that does not return) from one that runs.
    public let lastPeriodStartNanoseconds = Atomic<UInt64>(0)
    public let deviceLosses = Atomic<Int>(0)
    /// Underruns of every playback device so far (published by the driver each period).
    public let xruns = Atomic<Int>(0)
    public let reopens = Atomic<Int>(0)

    public init() {}

    /// Render thread, once per period.
    @_noAllocation
    public func record(periodStart: UInt64, renderNanoseconds: UInt64, periodNanoseconds: UInt64) {
        periods.wrappingAdd(1, ordering: .relaxed)
        lastPeriodStartNanoseconds.store(periodStart, ordering: .relaxed)
        lastRenderNanoseconds.store(renderNanoseconds, ordering: .relaxed)
        if renderNanoseconds > worstRenderNanoseconds.load(ordering: .relaxed) {
            worstRenderNanoseconds.store(renderNanoseconds, ordering: .relaxed)
        }
        if renderNanoseconds > periodNanoseconds { missedDeadlines.wrappingAdd(1, ordering: .relaxed) }
    }
}
