import CJACK
import MemberwiseInit

/// A failed JACK call on the control thread (opening a client, registering or connecting ports).
@PublicInit
public struct JACKError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What we were doing, e.g. `jack_client_open("AudioGraph")`.
    public var operation: String
    /// What went wrong, in words (JACK's status bits, or the port involved).
    public var reason: String
    /// No server to talk to (not running, or gone): worth waiting for, unlike a refused request.
    public var serverAbsent: Bool = false

    public var description: String { "\(operation) failed: \(reason)" }

    /// `jack_client_open`'s status bits in words.
    static func describe(_ status: jack_status_t) -> (String, serverAbsent: Bool) {
        let bits = status.rawValue
        func has(_ flag: JackStatus) -> Bool { bits & flag.rawValue != 0 }
        if has(JackServerFailed) || has(JackServerStarted) && has(JackFailure) {
            return ("no JACK server is running (JackServerFailed)", true)
        }
        var parts: [String] = []
        if has(JackServerError) { parts.append("the server refused the client (JackServerError)") }
        if has(JackNameNotUnique) { parts.append("the client name is taken (JackNameNotUnique)") }
        if has(JackVersionError) { parts.append("the server speaks another protocol version (JackVersionError)") }
        if has(JackShmFailure) { parts.append("no shared memory (JackShmFailure)") }
        if has(JackInitFailure) { parts.append("the client could not initialise (JackInitFailure)") }
        if has(JackInvalidOption) { parts.append("invalid option (JackInvalidOption)") }
        if parts.isEmpty { parts.append("JACK status 0x\(String(bits, radix: 16))") }
        return (parts.joined(separator: ", "), false)
    }
}
