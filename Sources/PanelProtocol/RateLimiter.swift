/// A token bucket: `burst` messages at once, then `perSecond` on average. Time is given by the
/// caller (nanoseconds, monotonic), so tests run on virtual time.
public struct RateLimiter: Sendable {
    public let perSecond: Double
    public let burst: Double
    private var tokens: Double
    private var last: UInt64?

    public init(perSecond: Double, burst: Double) {
        self.perSecond = perSecond
        self.burst = burst
        tokens = burst
    }

    /// Takes one token if there is one.
    public mutating func allow(now: UInt64) -> Bool {
        if let last, now > last { tokens = min(burst, tokens + Double(now - last) * perSecond / 1e9) }
        last = max(last ?? now, now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
