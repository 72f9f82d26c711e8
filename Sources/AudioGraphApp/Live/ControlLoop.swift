import Engine
import Foundation
import LiveControl

/// The control thread's loop while `play` runs: every 10 ms the engine's control work, the
/// driver's outage handling and the ignored-note reports; the status line several times a second
/// on a terminal (every 10 s in a log) and to systemd every second; until a stop signal, the
/// duration, or the end of the song.
struct ControlLoop {
    let controller: EngineController
    let status: StatusSource
    let driver: LiveDriver
    let stop: StopSignal
    let notifier: SystemdNotifier?
    let isTerminal: Bool
    let statusInterval: Double
    let durationSeconds: Double?
    let song: SongFeeder?

    func run() {
        let parts = PartReport()
        let start = Date()
        var lastStatus = Date.distantPast, lastNotified = Date.distantPast
        while !stop.isRequested {
            usleep(10_000)
            controller.performControlWork()
            if !driver.service() { stop.request() }
            for line in parts.newIgnoredNoteLines(controller) { LiveLog.line(line) }
            if Date().timeIntervalSince(lastStatus) >= statusInterval {
                lastStatus = Date()
                if isTerminal {
                    FileHandle.standardOutput.write(Data("\r\(status.snapshot().line)\u{1B}[K".utf8))
                } else {
                    LiveLog.line(status.snapshot().line)
                }
            }
            if let notifier, Date().timeIntervalSince(lastNotified) >= 1 {
                lastNotified = Date()
                notifier.send("STATUS=\(status.snapshot().line)")
            }
            if let durationSeconds, Date().timeIntervalSince(start) >= durationSeconds { break }
            // The song is over when its sound has died away; what never decays is cut (with the
            // fade-out that follows) after `SongEnd.maxTailSeconds`, as `render` cuts its tail.
            if let song, song.isFinished, controller.meters.isIdle || song.secondsSinceEnd > SongEnd.maxTailSeconds { break }
        }
    }
}
