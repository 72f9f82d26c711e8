import Foundation
import Synchronization

/// SIGINT and SIGTERM as a flag the control thread polls: once `install()`ed, the signals no
/// longer end the process, they ask it to stop (the session then fades out and closes cleanly).
/// Any thread.
final class StopSignal: Sendable {
    private let requested = Atomic<Bool>(false)
    private let sources = Mutex<[DispatchSourceSignal]>([])

    var isRequested: Bool { requested.load(ordering: .relaxed) }

    func request() { requested.store(true, ordering: .relaxed) }

    /// Idempotent.
    func install() {
        sources.withLock { sources in
            guard sources.isEmpty else { return }
            for sig in [SIGINT, SIGTERM] {
                signal(sig, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
                source.setEventHandler { [self] in request() }
                source.resume()
                sources.append(source)
            }
        }
    }
}
