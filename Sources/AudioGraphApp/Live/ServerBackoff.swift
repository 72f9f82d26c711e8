import ALSAIO
import Glibc

extension LiveDevices {
    /// How often to try reopening the playback device while it is away: a card comes back when it
    /// is plugged in (100 ms doubling to 5 s), a sound server a second or so after it is restarted,
    /// and trying it costs one failed connect — so twice a second (playback resumes within about
    /// half a second of the server's return, plus the open).
    var reopenBackoff: ReopenBackoff {
        PCMRoute.of(options.device).serverName == nil ? ReopenBackoff() : Self.serverBackoff
    }

    /// Back-off for a sound server (ALSA plugin or JACK): 100 ms doubling to 0.5 s.
    static let serverBackoff = ReopenBackoff(maximumSeconds: 0.5)

    /// A lost device's errno in words: "Broken pipe", or for a stalled peer "no room in its buffer for too long".
    static func lossReason(_ code: Int32) -> String {
        code == -ETIMEDOUT ? "no room in its buffer for too long: the server or driver stopped" : String(cString: strerror(-code))
    }
}
