import PanelProtocol
import Synchronization

/// The latest `state` frame, built from the backend at most once per feed period however many
/// pages are open (and never when none is: only open pages ask for it).
final class FrameCache: Sendable {
    private let backend: any PanelBackend
    private let periodNanoseconds: UInt64
    private let latest = Mutex<(frame: String, built: UInt64)?>(nil)

    init(backend: any PanelBackend, rate: Int) {
        self.backend = backend
        periodNanoseconds = 1_000_000_000 / UInt64(rate) * 3 / 4
    }

    func frame(now: UInt64) -> String {
        if let cached = latest.withLock({ $0 }), now &- cached.built < periodNanoseconds { return cached.frame }
        let frame = PanelFrames.state(backend.state())
        latest.withLock { $0 = (frame, now) }
        return frame
    }
}
