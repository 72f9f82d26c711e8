/// Where the panel listens, from `--panel [ADDR:]PORT` or the instrument file's `"panel"`:
/// `8080` is 127.0.0.1:8080; `0.0.0.0:8080`, `192.168.1.20:8080`, `[::]:8080` name the address.
/// Only loopback addresses are served without a token.
import MemberwiseInit

@PublicInit
public struct PanelAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(parsing text: String) throws(PanelError) {
        let quoted = PanelError.excerpt(text)
        let portText: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw PanelError("panel address '\(quoted)' needs a port after ']' ([ADDR]:PORT)") }
            portText = rest.dropFirst()
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
            guard !host.contains(":") else { throw PanelError("panel address '\(quoted)': write an IPv6 address in brackets, e.g. [::1]:8080") }
        } else {
            host = "127.0.0.1"
            portText = text[...]
        }
        guard let port = Int(portText), (1...65535).contains(port) else {
            throw PanelError("panel port must be 1–65535 (got '\(quoted)'; the form is [ADDR:]PORT)")
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" || $0 == "%" }) || host == "localhost" else {
            throw PanelError("panel address '\(quoted)' is not a numeric IP address (e.g. 0.0.0.0:8080 or 192.168.1.20:8080)")
        }
        self.port = port
        if host == "localhost" { host = "127.0.0.1" }
    }

    /// 127.0.0.0/8 or ::1: reachable only from this machine.
    public var isLoopback: Bool { Self.isLoopback(host) }

    /// Every address but a loopback one needs the token.
    public var requiresToken: Bool { !isLoopback }

    public static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare == "::1" || bare == "localhost" || bare == "::ffff:127.0.0.1" { return true }
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// `127.0.0.1:8080`, `[::1]:8080`.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
