import Foundation
import Synchronization

/// SIGINT and SIGTERM as a flag the control thread polls: once `install()`ed, the signals no
/// longer end the process, they ask it to stop (the session then fades out and closes cleanly).
/// A session's own stop (`request`: the song ended, the driver cannot go on) is kept apart from
/// the signals, so one process can run sessions one after another (`reset`) with the sources
/// installed once. Any thread.
final class StopSignal: Sendable {
    private let requested = Atomic<Bool>(false)
    private let signalled = Atomic<Bool>(false)
    private let sources = Mutex<[DispatchSourceSignal]>([])

    var isRequested: Bool { requested.load(ordering: .relaxed) || signalled.load(ordering: .relaxed) }

    func request() { requested.store(true, ordering: .relaxed) }

    /// Forgets `request()` for the next session (a signal received is kept).
    func reset() { requested.store(false, ordering: .relaxed) }

    /// Idempotent.
    func install() {
        sources.withLock { sources in
            guard sources.isEmpty else { return }
            for sig in [SIGINT, SIGTERM] {
                signal(sig, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
                source.setEventHandler { [self] in signalled.store(true, ordering: .relaxed) }
                source.resume()
                sources.append(source)
            }
        }
    }
}
