import ALSAIO
import LiveLoop

/// The ALSA push loop's render thread as the control thread runs it: started once; when the
/// playback device is lost the thread returns, and `service` joins it, renders on without a
/// device while reopening with back-off (`OutageRecovery`, MIDI still applied), then starts a new
/// render thread on the reopened device. Control thread (one).
final class PushDriver {
    let loop: AudioLoop
    private let priority: Int32?
    private let reopen: () -> PlaybackDevice?
    private let backoff: ReopenBackoff
    private var thread: ThreadHandle?
    private var outage: OutageRecovery?

    init(loop: AudioLoop, priority: Int32?, backoff: ReopenBackoff, reopen: @escaping () -> PlaybackDevice?) {
        self.loop = loop
        self.backoff = backoff
        self.priority = priority
        self.reopen = reopen
    }

    /// Starts the render thread (SCHED_FIFO at `priority` when allowed, memory locked).
    func start() throws -> RealtimeStatus {
        let (thread, realtime) = try RealtimeThread.start(name: "audiograph-rt", priority: priority) { [loop] in loop.run() }
        self.thread = thread
        return realtime
    }

    /// Every few milliseconds: handles a lost device. Returns false when playing cannot go on (a
    /// render thread could not be restarted).
    func service() -> Bool {
        guard loop.outputLost.load(ordering: .acquiring) else { return true }
        let now = MonotonicClock.nanoseconds()
        if outage == nil {
            thread?.join()
            thread = nil
            let reason = LiveDevices.lossReason(loop.lostCode.load(ordering: .relaxed))
            LiveLog.line("playback device lost (\(reason)): reopening with back-off; MIDI is still applied meanwhile")
            outage = loop.beginOutage(now: now, backoff: backoff)
        }
        guard var outage else { return true }
        let reopened = loop.serviceOutage(&outage, now: now, reopen: reopen)
        self.outage = reopened ? nil : outage
        guard reopened else { return true }
        do {
            thread = try RealtimeThread.start(name: "audiograph-rt", priority: priority, lockMemory: false) { [loop] in loop.run() }.0
            LiveLog.line("playback device reopened")
            return true
        } catch {
            LiveLog.line("playback device reopened, but the audio thread could not start: \(error)")
            return false
        }
    }

    /// Stops the render thread (after its current period) and waits for it.
    func stop() {
        loop.stop()
        thread?.join()
        thread = nil
    }
}
