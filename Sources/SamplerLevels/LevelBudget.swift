import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// How much memory band-limited levels (or sample frames read on need) may take, and how much
/// they take now (any thread: atomics).
///
/// Levels cost ~52 bytes per source sample (README.md), so nothing else in a sampler grows as fast:
/// without a bound, a 100 MB sample asked for 2.8 GB. Every level built is charged here before it is
/// built and refunded when it is freed; what does not fit is not built, and its region plays plain
/// (the original frames through the 4-point cubic: aliasing when transposed up). A second budget
/// of its own bounds the frames of deferred waveforms (a SoundFont's samples under `play`), read
/// and charged the same way; what does not fit is not read, and its notes are silent.
public final class LevelBudget: Sendable {
    /// The process's level budget (what `--level-memory` sets); tests make their own.
    public static let shared = LevelBudget(limitBytes: defaultLimitBytes)
    /// The process's budget for frames read on need (what `--sample-memory` sets).
    public static let sharedSamples = LevelBudget(limitBytes: defaultLimitBytes)

    /// A quarter of physical memory (1 GB on a 4 GB Raspberry Pi), at least 64 MB.
    public static var defaultLimitBytes: Int {
        let pages = sysconf(Int32(_SC_PHYS_PAGES)), pageSize = sysconf(Int32(_SC_PAGESIZE))
        guard pages > 0, pageSize > 0 else { return 1 << 30 }
        return max(pages * pageSize / 4, 64 << 20)
    }

    private let limit: Atomic<Int>
    private let used = Atomic<Int>(0)
    private let peak = Atomic<Int>(0)

    public init(limitBytes: Int) {
        limit = Atomic(max(0, limitBytes))
    }

    /// The most levels may take, bytes. Lowering it frees nothing by itself: builders stop adding
    /// (and the live builder withdraws the least recently played) until use is below it.
    public var limitBytes: Int {
        get { limit.load(ordering: .relaxed) }
        set { limit.store(max(0, newValue), ordering: .relaxed) }
    }

    /// What levels take now (built and not yet freed), bytes.
    public var usedBytes: Int { used.load(ordering: .relaxed) }

    /// The most levels took at once since the budget was made, bytes (a high-water mark).
    public var peakBytes: Int { peak.load(ordering: .relaxed) }

    /// Charges `bytes` if they fit under the limit; false (nothing charged) if not.
    func reserve(_ bytes: Int) -> Bool {
        var current = used.load(ordering: .relaxed)
        while true {
            guard current + bytes <= limitBytes else { return false }
            let (exchanged, original) = used.compareExchange(expected: current, desired: current + bytes, ordering: .relaxed)
            if exchanged {
                peak.max(current + bytes, ordering: .relaxed)
                return true
            }
            current = original
        }
    }

    /// Gives `bytes` back (levels freed, or a reservation not used).
    func refund(_ bytes: Int) { used.subtract(bytes, ordering: .relaxed) }

    /// `bytes` in MB or GB, for messages.
    public static func describe(_ bytes: Int) -> String {
        bytes >= 1 << 30 ? "\((Double(bytes) / Double(1 << 30) * 10).rounded() / 10) GB" : "\(max(1, (bytes + (1 << 19)) >> 20)) MB"
    }
}
