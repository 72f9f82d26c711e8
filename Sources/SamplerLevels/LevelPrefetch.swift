import DSP
import Sampler
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The levels an offline render will publish next, built ahead by threads that would otherwise
/// wait: the render's helpers between spans (`buildOne`). `LevelSchedule.prepare` then finds them
/// built instead of building them on the rendering thread while the helpers spin. Nothing about
/// the render changes: levels are the same to the bit whoever builds them, and the schedule still
/// publishes each use at its block, charging the budget then (or finding the levels alive, or not
/// fitting, as without building ahead: what was built ahead for it is then dropped).
///
/// What is built ahead and not yet taken is not charged to the level budget; it stays under
/// `capacityBytes`. Any thread.
public final class LevelPrefetch: Sendable {
    /// Most bytes of levels built (or being built) ahead at once.
    public let capacityBytes: Int

    private struct Job {
        let request: LevelRequest
        let levelCount: Int
        let bytes: Int
        var isBuilding = false
        var built: PrebuiltLevels?
    }

    /// Offered jobs by use (the schedule's index), and the bytes they hold.
    private let jobs = ControlLocked<(byUse: [Int: Job], bytes: Int)>(([:], 0))
    /// Jobs no thread has started: the helpers' cheap test between spans.
    private let waiting = Atomic<Int>(0)

    public init(capacityBytes: Int) {
        self.capacityBytes = max(0, capacityBytes)
    }

    /// Offers use `use`'s first `levelCount` levels of `request`'s region (`bytes` once built) for
    /// building ahead. False, and nothing offered, when they would not fit under the capacity.
    func offer(use: Int, request: LevelRequest, levelCount: Int, bytes: Int) -> Bool {
        let offered = jobs.withLock { jobs in
            guard jobs.bytes + bytes <= capacityBytes else { return false }
            jobs.byUse[use] = Job(request: request, levelCount: levelCount, bytes: bytes)
            jobs.bytes += bytes
            return true
        }
        if offered { waiting.add(1, ordering: .relaxed) }
        return offered
    }

    /// Builds the waiting job of the earliest use, whole, on the calling thread. False when none waits.
    public func buildOne() -> Bool {
        guard waiting.load(ordering: .relaxed) > 0 else { return false }
        let claimed: (use: Int, job: Job)? = jobs.withLock { jobs in
            guard let use = jobs.byUse.lazy.filter({ !$0.value.isBuilding && $0.value.built == nil }).map(\.key).min() else { return nil }
            jobs.byUse[use]!.isBuilding = true
            return (use, jobs.byUse[use]!)
        }
        guard let (use, job) = claimed else { return false }
        waiting.subtract(1, ordering: .relaxed)
        let built = PrebuiltLevels(LevelBuilder.channels(for: job.request, levelCount: job.levelCount))
        jobs.withLock { jobs in
            // Dropped meanwhile (the store found the levels alive, or they did not fit): freed with `built`.
            guard jobs.byUse[use] != nil else { return }
            jobs.byUse[use]!.built = built
            jobs.byUse[use]!.isBuilding = false
        }
        return true
    }

    /// Use `use`'s levels if they were built ahead with `levelCount` levels, waiting while another
    /// thread builds them; nil when they were not (the caller builds them). The job is gone either way.
    func take(use: Int, levelCount: Int) -> PrebuiltLevels? {
        while true {
            enum Outcome { case taken(PrebuiltLevels?, wasWaiting: Bool), building }
            let outcome: Outcome = jobs.withLock { jobs in
                guard let job = jobs.byUse[use] else { return .taken(nil, wasWaiting: false) }
                if job.isBuilding { return .building }
                jobs.byUse[use] = nil
                jobs.bytes -= job.bytes
                return .taken(job.levelCount == levelCount ? job.built : nil, wasWaiting: job.built == nil)
            }
            switch outcome {
            case .taken(let built, let wasWaiting):
                if wasWaiting { waiting.subtract(1, ordering: .relaxed) }
                return built
            case .building:
                // Build the next waiting job meanwhile: the helper claims the earliest, which is
                // the one the schedule needs next, so waiting alone would leave this thread idle.
                if !buildOne() { sched_yield() }
            }
        }
    }

    /// Forgets use `use`'s job (published without it); what was built for it is freed.
    func drop(use: Int) {
        let wasWaiting = jobs.withLock { jobs -> Bool in
            guard let job = jobs.byUse.removeValue(forKey: use) else { return false }
            jobs.bytes -= job.bytes
            return !job.isBuilding && job.built == nil
        }
        if wasWaiting { waiting.subtract(1, ordering: .relaxed) }
    }
}

/// Levels built ahead, owned until `adopt` hands their buffers to a `RegionLevels` (freed with
/// this object otherwise).
final class PrebuiltLevels: @unchecked Sendable {
    private var channels: [RegionLevels.Channel]?

    init(_ channels: [RegionLevels.Channel]) {
        self.channels = channels
    }

    /// The channels, whose buffers the caller now owns.
    func adopt() -> [RegionLevels.Channel] {
        defer { channels = nil }
        return channels ?? []
    }

    deinit {
        for channel in channels ?? [] {
            switch channel {
            case .float(let levels): for level in levels { level.deallocate() }
            case .int16(let levels): for level in levels { level.samples.deallocate() }
            }
        }
    }
}
