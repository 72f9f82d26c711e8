/// A recursive moving average of the last `points` samples (mono): one add and one subtract per
/// sample. The running sum is recomputed exactly from the history every `refreshInterval` samples
/// so Float rounding never accumulates. Its response has nulls at every multiple of fs/points.
/// RT-safe after init.
public final class MovingAverage {
    /// Longest average supported.
    public static let maximumPoints = 101
    /// Samples between exact recomputations of the running sum (well before Float drift matters).
    public static let refreshInterval = 4096

    public private(set) var points: Int
    @usableFromInline let history: UnsafeMutablePointer<Float>
    @usableFromInline let mask = 127
    @usableFromInline var writeIndex = 0
    @usableFromInline var sum: Float = 0
    @usableFromInline var sinceRefresh = 0
    @usableFromInline var scale: Float

    public init(points: Int = 3) {
        history = .allocate(capacity: 128)
        history.initialize(repeating: 0, count: 128)
        self.points = min(max(points, 1), Self.maximumPoints)
        scale = 1 / Float(self.points)
    }

    deinit { history.deallocate() }

    /// Changes the length (clamped to 1…101); the sum is recomputed from the history, so the
    /// next output is the exact average of the last `points` inputs. RT-safe (≤ 101 adds).
    public func setPoints(_ newPoints: Int) {
        points = min(max(newPoints, 1), Self.maximumPoints)
        scale = 1 / Float(points)
        refresh()
    }

    @usableFromInline
    func refresh() {
        var s: Float = 0
        for age in 0..<points { s += history[(writeIndex &- 1 &- age) & mask] }
        sum = s
        sinceRefresh = 0
    }

    /// Pushes `x` and returns the average of the last `points` inputs including it. RT-safe.
    @inlinable
    public func process(_ x: Float) -> Float {
        let leaving = history[(writeIndex &- points) & mask]
        history[writeIndex] = x
        writeIndex = (writeIndex &+ 1) & mask
        sum += x - leaving
        sinceRefresh &+= 1
        if sinceRefresh >= Self.refreshInterval { refresh() }
        return sum * scale
    }

    public func reset() {
        history.update(repeating: 0, count: 128)
        sum = 0
        sinceRefresh = 0
    }
}
