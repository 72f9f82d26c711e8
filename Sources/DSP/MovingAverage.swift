/// A recursive moving average of the last `points` samples (mono): one add and one subtract per
/// sample. The running sum is recomputed exactly from the history every `refreshInterval` samples
/// so Float rounding never accumulates. Its response has nulls at every multiple of fs/points.
/// Render-thread safe after init.
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
    /// next output is the exact average of the last `points` inputs. Render-thread safe (≤ 101 adds).
    @_noAllocation
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

    /// Pushes `x` and returns the average of the last `points` inputs including it. Render-thread safe.
    @inlinable
    @_noAllocation
    public func process(_ x: Float) -> Float {
        let leaving = history[(writeIndex &- points) & mask]
        history[writeIndex] = x
        writeIndex = (writeIndex &+ 1) & mask
        sum += x - leaving
        sinceRefresh &+= 1
        if sinceRefresh >= Self.refreshInterval { refresh() }
        return sum * scale
    }

    /// Averages `count` samples from `input` into `output` (may alias). Same result as calling
    /// `process(_:)` per sample, with the state held in registers for the block. Render-thread safe.
    @_noAllocation
    public func process(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, count: Int) {
        var done = 0
        while done < count {
            // Run up to the next exact refresh in one tight loop.
            let run = min(count - done, Self.refreshInterval - sinceRefresh)
            var w = writeIndex, s = sum
            let h = history, n = points, k = scale
            for i in done..<(done + run) {
                let x = input[i]
                s += x - h[(w &- n) & mask]
                h[w] = x
                w = (w &+ 1) & mask
                output[i] = s * k
            }
            writeIndex = w
            sum = s
            sinceRefresh += run
            done += run
            if sinceRefresh >= Self.refreshInterval {
                refresh()
                // The refreshed sum is exact; restate the last output from it.
                output[done - 1] = sum * scale
            }
        }
    }

    /// Takes over `other`'s input history (so a new length can start exact without having
    /// been fed). Same capacity on both sides; Render-thread safe.
    @_noAllocation
    public func copyHistory(from other: MovingAverage) { copyHistory(other.historyState) }

    /// The input history as plain values, for `copyHistory(_:)` when the two averagers are
    /// reached through `RenderRef`s (one cannot be borrowed inside the other's call without a retain).
    public var historyState: (samples: UnsafePointer<Float>, writeIndex: Int) { @_noAllocation get { (UnsafePointer(history), writeIndex) } }

    @_noAllocation
    public func copyHistory(_ state: (samples: UnsafePointer<Float>, writeIndex: Int)) {
        UnsafeMutableRawPointer(history).copyMemory(from: state.samples, byteCount: 128 * MemoryLayout<Float>.stride)
        writeIndex = state.writeIndex
    }

    @_noAllocation
    public func reset() {
        history.update(repeating: 0, count: 128)
        sum = 0
        sinceRefresh = 0
    }
}
