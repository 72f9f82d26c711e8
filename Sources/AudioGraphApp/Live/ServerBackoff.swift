import ALSAIO
import Glibc

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
