/// Whether a WebSocket upgrade may go ahead, decided before the upgrade so that a refusal can carry
/// its own status and reason (401 without the token, 403 for a foreign Origin, …). The checks run
/// in this order: the path, the address's request budget, the gate (Host, token, Origin), then a
/// free socket slot. An admitted upgrade holds that slot until `ClientLimits.closeSocket()`.
public enum SocketAdmission {
    /// The one path that upgrades.
    public static let path = "/ws"

    public static func decide(path: String, peer: String, host: String?, origin: String?, token: String?, gate: PanelGate,
                              limits: ClientLimits, now: UInt64) -> PanelGate.Decision {
        guard path == Self.path else {
            return .refuse(status: 404, reason: "no WebSocket at '\(PanelError.excerpt(path))'; the panel's is \(Self.path)")
        }
        guard limits.allowRequest(from: peer, now: now) else { return refusal(tooManyRequests(from: peer)) }
        let gated = gate.admitSocket(host: host, origin: origin, token: token)
        guard gated == .allow else { return gated }
        guard limits.openSocket() else { return refusal(socketsTaken) }
        return .allow
    }

    /// Past `ClientLimits.requestsPerSecond` for one address (plain requests are told the same).
    public static func tooManyRequests(from peer: String) -> (status: Int, reason: String) {
        (429, "too many requests from \(PanelError.excerpt(peer)); slow down")
    }

    /// `ClientLimits.maxSockets` pages are open.
    public static let socketsTaken = (status: 503, reason: "the panel has \(ClientLimits.maxSockets) pages open already; close one")

    private static func refusal(_ r: (status: Int, reason: String)) -> PanelGate.Decision { .refuse(status: r.status, reason: r.reason) }
}
