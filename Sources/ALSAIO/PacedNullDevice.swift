import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A playback "device" that discards audio but keeps time like a sound card: each `write`
/// sleeps (`clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME)`) until the moment the device
/// would have consumed the frames written before it, and records how late the thread woke
/// up. It lets a host without a sound card run the live loop at real-time pace and measure
/// scheduling jitter (ALSA's `null` PCM does not pace at all).
///
/// Model: a buffer of `bufferPeriods` periods. A wake-up later than the buffer's slack
/// (`(bufferPeriods − 1)` periods) would have been an underrun on real hardware: it is counted
/// and the clock re-anchored, as `snd_pcm_prepare` would.
///
/// Threads: `write` on one render thread (no allocation, no locks); `report()` and `reset()`
/// on a control thread while the writer is stopped, except that `missedDeadlineCount` may
/// be read any time.
///
/// `@unchecked Sendable`: the clock and the histogram belong to the writer's thread, and to the
/// control thread only while the writer is stopped (above).
public final class PacedNullDevice: @unchecked Sendable {
    public let sampleRateHz: Int
    public let bufferPeriods: Int
    public let periodFrames: Int
    /// Width of one lateness histogram bucket in microseconds.
    public let bucketMicroseconds: Int

    private let histogram: UnsafeMutablePointer<Int>
    private let bucketCount: Int
    private var originNanoseconds: UInt64 = 0
    private var framesSinceOrigin: UInt64 = 0
    private var wakeups = 0
    private var latenessSumNanoseconds: UInt64 = 0
    private var maxLatenessNanoseconds: UInt64 = 0
    private let missedDeadlines = Atomic<Int>(0)

    /// - Parameters:
    ///   - bucketMicroseconds, bucketCount: histogram resolution and range (default 10 µs × 2000
    ///     = 20 ms); later wake-ups land in the last bucket (the maximum is kept exactly).
    public init(
        sampleRateHz: Int = 48_000, periodFrames: Int = 64, bufferPeriods: Int = 2, bucketMicroseconds: Int = 10,
        bucketCount: Int = 2000
    ) {
        self.sampleRateHz = max(sampleRateHz, 1)
        self.periodFrames = max(periodFrames, 1)
        self.bufferPeriods = max(bufferPeriods, 2)
        self.bucketMicroseconds = max(bucketMicroseconds, 1)
        self.bucketCount = max(bucketCount, 1)
        histogram = UnsafeMutablePointer<Int>.allocate(capacity: self.bucketCount)
        histogram.initialize(repeating: 0, count: self.bucketCount)
    }

    deinit { histogram.deallocate() }

    /// Wake-ups later than the buffer's slack (underruns on real hardware). Any thread.
    public var missedDeadlineCount: Int { @_noAllocation get { missedDeadlines.load(ordering: .relaxed) } }

    /// Accepts `frames` frames (discarded) and returns when the device would have room for
    /// more. The signature matches `PCMDevice.write`. Render thread; no allocation.
    @_noAllocation
    public func write(left: UnsafePointer<Float>, right: UnsafePointer<Float>, frames: Int) -> PCMTransferStatus {
        let now = MonotonicClock.nanoseconds()
        if originNanoseconds == 0 {
            // Like a real device: the first write fills the buffer, playback starts now.
            originNanoseconds = now
            framesSinceOrigin = 0
        }
        // The writer may run ahead by (bufferPeriods − 1) periods; block until it may not.
        let slackFrames = UInt64((bufferPeriods - 1) * periodFrames)
        framesSinceOrigin += UInt64(max(frames, 0))
        let aheadFrames = framesSinceOrigin > slackFrames ? framesSinceOrigin - slackFrames : 0
        let deadline = originNanoseconds + aheadFrames * 1_000_000_000 / UInt64(sampleRateHz)
        RenderThreadCalls.sleep(until: MonotonicClock.timespecFrom(nanoseconds: deadline))
        let woke = MonotonicClock.nanoseconds()
        let lateness = woke > deadline ? woke - deadline : 0
        record(lateness)
        let slackNanoseconds = slackFrames * 1_000_000_000 / UInt64(sampleRateHz)
        if lateness > slackNanoseconds {
            missedDeadlines.wrappingAdd(1, ordering: .relaxed)
            originNanoseconds = woke  // re-anchor, as snd_pcm_prepare restarts the stream
            framesSinceOrigin = 0
            return .recovered
        }
        return .complete
    }

    @_noAllocation
    private func record(_ latenessNanoseconds: UInt64) {
        wakeups += 1
        latenessSumNanoseconds &+= latenessNanoseconds
        if latenessNanoseconds > maxLatenessNanoseconds { maxLatenessNanoseconds = latenessNanoseconds }
        let bucket = Int(latenessNanoseconds / UInt64(bucketMicroseconds * 1000))
        histogram[min(bucket, bucketCount - 1)] += 1
    }

    /// Lateness statistics since creation or `reset()`. Control thread, writer stopped.
    public func report() -> PacedLatenessReport {
        func percentile(_ fraction: Double) -> Double {
            guard wakeups > 0 else { return 0 }
            let rank = Int((Double(wakeups) * fraction).rounded(.up))
            var seen = 0
            for bucket in 0..<bucketCount {
                seen += histogram[bucket]
                if seen >= rank { return Double((bucket + 1) * bucketMicroseconds) }
            }
            return Double(bucketCount * bucketMicroseconds)
        }
        return PacedLatenessReport(
            wakeups: wakeups, periodFrames: periodFrames, sampleRateHz: sampleRateHz,
            meanMicroseconds: wakeups > 0 ? Double(latenessSumNanoseconds) / Double(wakeups) / 1000 : 0,
            p50Microseconds: percentile(0.5), p99Microseconds: percentile(0.99), p999Microseconds: percentile(0.999),
            maxMicroseconds: Double(maxLatenessNanoseconds) / 1000, missedDeadlines: missedDeadlineCount)
    }

    /// Clears the statistics and restarts the clock at the next write. Control thread, writer stopped.
    public func reset() {
        histogram.update(repeating: 0, count: bucketCount)
        originNanoseconds = 0
        framesSinceOrigin = 0
        wakeups = 0
        latenessSumNanoseconds = 0
        maxLatenessNanoseconds = 0
        missedDeadlines.store(0, ordering: .relaxed)
    }
}

/// Wake-up lateness of a `PacedNullDevice` run. Percentiles are histogram bucket upper
/// edges (resolution `bucketMicroseconds`); mean and max are exact.
public struct PacedLatenessReport: Sendable, Equatable, CustomStringConvertible {
    public var wakeups: Int
    public var periodFrames: Int
    public var sampleRateHz: Int
    public var meanMicroseconds: Double
    public var p50Microseconds: Double
    public var p99Microseconds: Double
    public var p999Microseconds: Double
    public var maxMicroseconds: Double
    public var missedDeadlines: Int

    public var description: String {
        let period = Double(periodFrames) * 1e6 / Double(max(sampleRateHz, 1))
        return "\(wakeups) wake-ups of \(periodFrames) frames (\(Int(period.rounded())) µs): lateness mean "
            + "\(Int(meanMicroseconds.rounded())) µs, p50 ≤ \(Int(p50Microseconds)) µs, p99 ≤ \(Int(p99Microseconds)) µs, "
            + "p99.9 ≤ \(Int(p999Microseconds)) µs, max \(Int(maxMicroseconds.rounded())) µs; "
            + "\(missedDeadlines) missed deadlines"
    }
}
