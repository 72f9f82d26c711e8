import ALSAIO
import Synchronization

/// `paced SECONDS PERIOD_FRAMES [PRIORITY]`: runs a `PacedNullDevice` loop on a thread started
/// by `RealtimeThread` (SCHED_FIFO when PRIORITY is given and allowed) and prints the
/// wake-up lateness report: the host-side stand-in for a sound card's period clock.
enum PacedProbe {
    static func run(_ arguments: [String]) throws -> Int32 {
        guard arguments.count >= 2, let seconds = Double(arguments[0]), let period = Int(arguments[1]), period > 0 else {
            return ProbeCommand.usage()
        }
        let priority = arguments.count > 2 ? Int32(arguments[2]) : nil
        let device = PacedNullDevice(sampleRateHz: 48_000, periodFrames: period, bufferPeriods: 2)
        let blocks = Int(seconds * 48_000) / period
        let finished = Atomic<Bool>(false)
        let (thread, status) = try RealtimeThread.start(name: "probe-paced", priority: priority) {
            let silence = UnsafeMutablePointer<Float>.allocate(capacity: period)
            silence.initialize(repeating: 0, count: period)
            for _ in 0..<blocks { _ = device.write(left: silence, right: silence, frames: period) }
            silence.deallocate()
            finished.store(true, ordering: .releasing)
        }
        say("thread: \(status)")
        thread.join()
        say("paced: \(device.report())")
        return finished.load(ordering: .acquiring) ? 0 : 1
    }
}
