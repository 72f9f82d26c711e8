import ALSAIO
import Foundation

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
