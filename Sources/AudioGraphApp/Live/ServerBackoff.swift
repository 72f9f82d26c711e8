import ALSAIO
import Foundation

extension LiveDevices {
    /// How often to try reopening the playback device while it is away: a card comes back when it
    /// is plugged in (100 ms doubling to 5 s); PipeWire's or PulseAudio's PCM is tried every 100 ms,
    /// each try asking the server's socket and opening the plugin only when it answers
    /// (`ServerOpenGate`), so playback resumes within about 0.1 s of the server accepting clients
    /// again, plus the open, and waiting costs no more than idling; ALSA's `jack` plugin as JACK.
    var reopenBackoff: ReopenBackoff {
        if serverGate != nil {
            return ReopenBackoff(initialSeconds: ServerReopenGate.attemptSeconds, maximumSeconds: ServerReopenGate.attemptSeconds)
        }
        return PCMRoute.of(options.device) == .jack ? Self.serverBackoff : ReopenBackoff()
    }

    /// Back-off for a JACK server (native client, or ALSA's `jack` plugin): 100 ms doubling to 0.5 s.
    static let serverBackoff = ReopenBackoff(maximumSeconds: 0.5)

    /// A lost device's errno in words: "Broken pipe", or for a stalled peer "no room in its buffer for too long".
    static func lossReason(_ code: Int32) -> String {
        code == -ETIMEDOUT ? "no room in its buffer for too long: the server or driver stopped" : String(cString: strerror(-code))
    }
}

/// The playback device's way back when it leads to PipeWire or PulseAudio: each attempt asks the
/// server's socket and opens the ALSA plugin only when `ServerReopenGate` says so. Shared by the
/// wait at start and the reopening after a loss. Control thread.
final class ServerOpenGate {
    private let socket: SoundServerSocket?
    private var gate = ServerReopenGate()

    /// nil when `device` does not lead to PipeWire or PulseAudio (a card, ALSA's `jack` plugin).
    init?(device: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let route = PCMRoute.of(device)
        guard route == .pipewire || route == .pulse else { return nil }
        socket = SoundServerSocket(route: route, environment: environment)
    }

    /// Calls `open` when the gate lets it (its error is rethrown); nil when this attempt was only a
    /// question to the socket, which stayed silent.
    func attempt<Opened>(_ open: () throws -> Opened) throws -> Opened? {
        let probe = socket?.probe() ?? .unknown
        let now = MonotonicClock.nanoseconds()
        guard gate.shouldOpen(now: now, probe: probe) else { return nil }
        do {
            let opened = try open()
            gate.opened(now: now, probe: probe)
            return opened
        } catch {
            gate.failed(now: now, probe: probe)
            throw error
        }
    }
}
