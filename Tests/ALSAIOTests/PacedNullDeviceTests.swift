import ALSAIO
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct PacedNullDeviceTests {
    static let rate = 48_000
    static let period = 480  // 10 ms

    let silence = UnsafeMutablePointer<Float>.allocate(capacity: period)

    init() { silence.initialize(repeating: 0, count: Self.period) }

    @Test func writesCannotOutrunTheClock() {
        let device = PacedNullDevice(sampleRateHz: Self.rate, periodFrames: Self.period, bufferPeriods: 2)
        let writes = 20
        let start = MonotonicClock.nanoseconds()
        for _ in 0..<writes { _ = device.write(left: silence, right: silence, frames: Self.period) }
        let elapsed = MonotonicClock.nanoseconds() - start
        // After the first (buffer-filling) write, each period must wait for the device clock.
        let minimumNanoseconds = UInt64(writes - 1) * 10_000_000
        #expect(elapsed >= minimumNanoseconds)
        #expect(device.report().wakeups == writes)
    }

    @Test func aLateWriterIsCountedAsAMissedDeadlineAndReanchored() {
        let device = PacedNullDevice(sampleRateHz: Self.rate, periodFrames: Self.period, bufferPeriods: 2)
        _ = device.write(left: silence, right: silence, frames: Self.period)
        _ = device.write(left: silence, right: silence, frames: Self.period)
        usleep(30_000)  // three periods late: past the one-period slack
        #expect(device.write(left: silence, right: silence, frames: Self.period) == .recovered)
        // At least the deliberate one; a loaded machine may make another write late as well.
        let missed = device.missedDeadlineCount
        #expect(missed >= 1)
        let report = device.report()
        #expect(report.maxMicroseconds >= 10_000)
        #expect(report.description.contains("\(missed) missed deadlines"))
        device.reset()
        #expect(device.report().wakeups == 0 && device.missedDeadlineCount == 0)
    }
}

@Suite struct RealtimeThreadTests {
    @Test func bodyRunsAndTheStatusIsActionable() throws {
        let ran = Atomic<Bool>(false)
        let (thread, status) = try RealtimeThread.start(name: "test-rt", priority: 10, lockMemory: false) {
            ran.store(true, ordering: .releasing)
        }
        thread.join()
        let didRun = ran.load(ordering: .acquiring)
        #expect(didRun)
        // Either FIFO was granted, or the status says how to grant it.
        #expect(status.isRealtime || status.description.contains("rtprio 95"))
    }

    @Test func normalThreadsNeedNoPrivileges() throws {
        let (thread, status) = try RealtimeThread.start(name: "test-normal", priority: nil) {}
        thread.join()
        #expect(!status.isRealtime && status.problems.isEmpty)
    }
}
