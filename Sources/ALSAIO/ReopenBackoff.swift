/// Delays between attempts to reopen a lost device (`PCMTransferStatus.deviceLost`, a USB
/// interface unplugged, a sequencer restart): doubling from `initialSeconds` up to
/// `maximumSeconds`, back to the start after a success. Plain value; control thread.
public struct ReopenBackoff: Sendable, Equatable {
    public let initialSeconds: Double
    public let maximumSeconds: Double
    public private(set) var attempts = 0

    public init(initialSeconds: Double = 0.1, maximumSeconds: Double = 5) {
        self.initialSeconds = max(initialSeconds, 0)
        self.maximumSeconds = max(maximumSeconds, self.initialSeconds)
    }

    /// How long to wait before the next attempt; counts the attempt.
    public mutating func nextDelaySeconds() -> Double {
        let exponent = min(attempts, 30)  // 2^30 × anything positive is past any sane maximum
        attempts += 1
        return min(initialSeconds * Double(1 << exponent), maximumSeconds)
    }

    /// Call after a successful reopen.
    public mutating func reset() { attempts = 0 }
}
