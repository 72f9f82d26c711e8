import HTTPTypes
import PanelProtocol

/// What the gate needs from an HTTP request: its Host, Origin and `token` query parameter.
struct PanelRequest {
    let host: String?
    let origin: String?
    let token: String?
    let path: String

    init(_ request: HTTPRequest) {
        host = request.authority
        origin = request.headerFields[.origin]
        let target = request.path ?? "/"
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = String(parts[0])
        token = parts.count > 1 ? Self.parameter("token", in: parts[1]) : nil
    }

    /// One query parameter's value (the token is hex: no percent-decoding needed).
    static func parameter(_ name: String, in query: Substring) -> String? {
        for pair in query.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if kv.count == 2, kv[0] == name { return String(kv[1]) }
        }
        return nil
    }

    func admitSocket(_ gate: PanelGate) -> PanelGate.Decision { gate.admitSocket(host: host, origin: origin, token: token) }
    func admitPage(_ gate: PanelGate) -> PanelGate.Decision { gate.admitPage(host: host, token: token) }
}
