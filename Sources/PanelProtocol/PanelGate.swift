/// Who may load the page and open its WebSocket. Loopback panels check `Host` (a page from another
/// site that re-points its name at 127.0.0.1 is refused); panels on any other address need the
/// token. WebSockets must come from the page itself (`Origin` = `http://` + `Host`).
import MemberwiseInit

@PublicInit
public struct PanelGate: Sendable {
    public enum Decision: Equatable, Sendable {
        case allow
        /// HTTP status and a one-line reason for the body.
        case refuse(status: Int, reason: String)
    }

    public let address: PanelAddress
    /// Required when not nil (every non-loopback address).
    public let token: String?

    /// GET of the page (`/?token=…`).
    public func admitPage(host: String?, token given: String?) -> Decision {
        guard let host, !host.isEmpty else { return .refuse(status: 400, reason: "no Host header") }
        if let token {
            guard PanelToken.matches(given, token) else {
                return .refuse(status: 401, reason: "this panel needs its token: open the address `audiograph play` printed (…/?token=…), or see `audiograph status`")
            }
        } else if !PanelAddress.isLoopback(Self.hostName(host)) {
            return .refuse(status: 403, reason: "this panel answers only as 127.0.0.1, localhost or [::1] (Host was '\(PanelError.excerpt(host))')")
        }
        return .allow
    }

    /// The WebSocket upgrade (`/ws?token=…`).
    public func admitSocket(host: String?, origin: String?, token given: String?) -> Decision {
        let page = admitPage(host: host, token: given)
        guard page == .allow, let host else { return page }
        guard let origin, origin.lowercased() == "http://" + host.lowercased() else {
            return .refuse(status: 403, reason: "WebSocket refused: Origin '\(PanelError.excerpt(origin ?? "none"))' is not this panel's page (http://\(PanelError.excerpt(host)))")
        }
        return .allow
    }

    /// `127.0.0.1:8080` → `127.0.0.1`, `[::1]:8080` → `::1`, `localhost` → `localhost`.
    static func hostName(_ host: String) -> String {
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") { return String(host[host.index(after: host.startIndex)..<close]) }
        return host.split(separator: ":", maxSplits: 1).first.map(String.init) ?? host
    }
}
