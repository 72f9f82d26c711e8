import Synchronization

/// The bounds on what clients may ask of the panel, shared by the server's connections: open
/// WebSockets at once, and HTTP requests per second from one address (a bounded table: past
/// `maxAddresses` distinct addresses the table starts afresh rather than grow).
public final class ClientLimits: Sendable {
    public static let maxSockets = 8
    public static let requestsPerSecond = 50.0
    public static let requestBurst = 100.0
    static let maxAddresses = 256

    private let sockets = Atomic<Int>(0)
    private let requests = Mutex<[String: RateLimiter]>([:])

    public init() {}

    /// Takes a WebSocket slot; false when all are taken.
    public func openSocket() -> Bool {
        var current = sockets.load(ordering: .relaxed)
        while current < Self.maxSockets {
            let (exchanged, original) = sockets.compareExchange(expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    public func closeSocket() { sockets.subtract(1, ordering: .relaxed) }

    public var openSockets: Int { sockets.load(ordering: .relaxed) }

    /// One HTTP request from `address` at `now` (monotonic ns): false = too many, answer 429.
    public func allowRequest(from address: String, now: UInt64) -> Bool {
        requests.withLock { table in
            if table[address] == nil, table.count >= Self.maxAddresses { table.removeAll(keepingCapacity: true) }
            return table[address, default: RateLimiter(perSecond: Self.requestsPerSecond, burst: Self.requestBurst)].allow(now: now)
        }
    }
}
