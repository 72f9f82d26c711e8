import Sampler

/// Levels that live only while an offline render's song plays them. A region's strikes (the
/// note-ons that can start it) fall into *uses*: runs whose strikes lie at most `gapFrames` apart.
/// A use's levels are built just before the block holding its first strike, withdrawn after the
/// block holding its last one, and freed once no voice reads them. So the levels alive at once are
/// those of the regions the song plays around one moment, not of every region it ever plays.
///
/// The render stays exactly what building everything before the first block gave: every note-on
/// finds the same levels published (rebuilt from the same frames with the same filters, or the
/// withdrawn ones published again while a voice still holds them), and a voice keeps the form it
/// started with. Deterministic: the render is synchronous and the song known. Control thread (the
/// renderer's, between blocks).
public final class LevelSchedule {
    private struct Use {
        var program: Int
        var request: LevelRequest
        /// Positions of its first and last strike.
        var strikes: ClosedRange<Int>
    }

    private let bank: ProgramBank
    private let store: LevelStore
    private let margin: Bool
    private let byFirst: [Use], byLast: [Use]
    private var built = 0, withdrawn = 0
    /// The uses after `built` whose levels the helpers may build ahead (nil: none; see
    /// `LevelPrefetch`), and the first not offered to it yet.
    public let prefetch: LevelPrefetch?
    private var offered = 0
    /// Programs holding withdrawn levels that voices still read.
    private var waiting = Set<Int>()
    /// What the builds so far did (the warning to print at the end), each region counted once
    /// however many uses it has.
    public private(set) var report: LevelReport
    /// Regions with each outcome already counted in `report`: a region rebuilt for a later use
    /// counts again only if that build came out differently.
    private var reported = Set<Reported>()
    private struct Reported: Hashable {
        var region: RegionKey
        var unfit, reduced: Int
    }

    /// `plan` of the song the render plays, `bank` the renderer's; `frame` gives a message
    /// position's frame, `gapFrames` how far apart two strikes of a region may lie in one use.
    /// Regions whose voices need no levels at `sampleRate` (`LevelRequest.needsLevels`) get none.
    /// `prefetchBytes`: how much may be built ahead of the render (`LevelPrefetch`; 0: nothing),
    /// at most an eighth of `store`'s level budget.
    public init(
        plan: LevelBuildPlan, bank: ProgramBank, store: LevelStore = .shared, sampleRate: Double, frame: (Int) -> Int, gapFrames: Int,
        prefetchBytes: Int = 0
    ) {
        self.bank = bank
        self.store = store
        let prefetchBytes = min(prefetchBytes, store.budget.limitBytes / 8)
        prefetch = prefetchBytes > 0 ? LevelPrefetch(capacityBytes: prefetchBytes) : nil
        margin = plan.widensBendRange
        report = LevelReport(budgetBytes: store.budget.limitBytes)
        var uses: [Use] = []
        for (index, keys) in plan.strikes.sorted(by: { $0.key < $1.key }) where bank.programs.indices.contains(index) {
            var regions: [Int: (request: LevelRequest, strikes: [Int])] = [:]
            for (key, strikes) in keys {
                for request in bank.programs[index].levelRequests(forKeys: [key]) where request.needsLevels(atOutputRate: sampleRate) {
                    regions[request.region, default: (request, [])].strikes += strikes
                }
            }
            for (_, region) in regions.sorted(by: { $0.key < $1.key }) {
                let strikes = region.strikes.sorted()
                var first = strikes[0]
                for (previous, next) in zip(strikes, strikes.dropFirst()) where frame(next) - frame(previous) > gapFrames {
                    uses.append(Use(program: index, request: region.request, strikes: first...previous))
                    first = next
                }
                uses.append(Use(program: index, request: region.request, strikes: first...strikes[strikes.count - 1]))
            }
        }
        // Stable sorts: uses starting (ending) at the same message keep program and region order.
        func sorted(by bound: (ClosedRange<Int>) -> Int) -> [Use] {
            uses.indices.sorted { (bound(uses[$0].strikes), $0) < (bound(uses[$1].strikes), $1) }.map { uses[$0] }
        }
        byFirst = sorted(by: \.lowerBound)
        byLast = sorted(by: \.upperBound)
    }

    /// Before rendering a block whose messages end at position `end`: builds and publishes the
    /// levels of the uses whose first strike lies before `end`, as far as the budget holds them.
    public func prepare(before end: Int) {
        offerAhead()
        while built < byFirst.count && byFirst[built].strikes.lowerBound < end {
            let use = byFirst[built], index = built
            let outcome = bank.programs[use.program].supply([use.request], from: store, margin: margin) { prefetch?.take(use: index, levelCount: $0) }
            prefetch?.drop(use: index)
            if reported.insert(Reported(region: RegionKey(program: use.program, region: use.request.region), unfit: outcome.unfit, reduced: outcome.reduced)).inserted { report = report + outcome }
            built += 1
        }
        offerAhead()
    }

    /// Offers the uses after those built to `prefetch`, in order, as far as its capacity holds
    /// them: with the level count the budget would build (`LevelStore.levels`), unless their
    /// levels are alive now. A deferred waveform's region waiting for its frames is left to its turn.
    private func offerAhead() {
        guard let prefetch else { return }
        offered = max(offered, built)
        while offered < byFirst.count {
            let request = byFirst[offered].request
            let count = LevelStore.preferredLevelCount(for: request, margin: margin)
            if request.kind == .levels && !store.isAlive(request, levelCount: count) {
                let bytes = LevelStore.bytes(of: request, levelCount: count)
                guard prefetch.offer(use: offered, request: request, levelCount: count, bytes: bytes) else { return }
            }
            offered += 1
        }
    }

    /// After rendering the block whose messages end at position `end`: withdraws the levels of the
    /// uses whose last strike lies before `end`, and lets go of withdrawn levels no voice reads any more.
    public func release(before end: Int) {
        while withdrawn < byLast.count && byLast[withdrawn].strikes.upperBound < end {
            let use = byLast[withdrawn]
            if bank.programs[use.program].withdrawLevels(region: use.request.region) { waiting.insert(use.program) }
            withdrawn += 1
        }
        for program in waiting where bank.programs[program].reclaimWithdrawnLevels() == 0 {
            waiting.remove(program)
        }
    }
}
