import CALSA
import MemberwiseInit

/// A failed ALSA call on the control plane (opening, configuring, connecting).
/// `code` is the negative errno alsa-lib returned; `description` names the operation,
/// the device or port involved, and alsa-lib's own explanation.
@PublicInit
public struct ALSAError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What we were doing, e.g. `snd_pcm_open("hw:Loopback,0,0", playback)`.
    public var operation: String
    /// Negative errno (`-ENOENT`, `-EBUSY`, …), or 0 when the failure is ours (no ALSA code).
    public var code: Int32
    /// Extra context, e.g. the list of candidate ports for an ambiguous name.
    public var detail: String = ""
    /// The whole message when a plain sentence says it better than the failed call, e.g. "ALSA
    /// default goes to PipeWire, which is not running (Host is down)".
    public var summary: String? = nil

    public var description: String {
        if let summary { return summary }
        var text = operation
        if code != 0 { text += " failed: " + String(cString: snd_strerror(code)) + " (\(code))" }
        if !detail.isEmpty { text += code != 0 ? "; " + detail : ": " + detail }
        return text
    }
}

/// Throws when an alsa-lib return code is negative (alsa-lib reports `-errno`).
@inline(__always)
func alsaCheck(_ returnCode: Int32, _ operation: @autoclosure () -> String) throws(ALSAError) {
    if returnCode < 0 { throw ALSAError(operation: operation(), code: returnCode) }
}

/// alsa-lib prints "ALSA lib …" to stderr for errors we already report as typed errors.
/// Silencing is process-wide and idempotent; called before the first open.
func silenceALSAErrorOutput() {
    calsa_silence_errors()
}
