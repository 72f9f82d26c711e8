import Sampler

extension SamplerProgram {
    /// When a loader builds a program's band-limited levels.
    public enum LevelBuilding: Sendable {
        /// Before the program is handed over (benchmarks, tests).
        case atLoad
        /// Later, by need: `LevelBuildPlan` before an offline render, `LevelPublisher` while playing.
        case byNeed
    }

    /// Any thread but the render thread: gives every region without levels its levels from
    /// `store` (built, or shared with another program), as far as its budget allows.
    @discardableResult
    public func buildAllLevels(store: LevelStore = .shared) -> LevelReport {
        supply(levelRequests, from: store)
    }

    /// Any thread but the render thread: the same for the regions a note on one of `keys` can
    /// start; without `margin`, only the levels of their zones' reach (`LevelRequest.reachLevelCount`).
    @discardableResult
    public func buildLevels(forKeys keys: Set<Int>, store: LevelStore = .shared, margin: Bool = true) -> LevelReport {
        supply(levelRequests(forKeys: keys), from: store, margin: margin)
    }

    /// `prebuilt`: levels built ahead for a request, by its count (`LevelStore.levels(for:margin:prebuilt:)`).
    func supply(
        _ requests: [LevelRequest], from store: LevelStore, margin: Bool = true, prebuilt: (_ levelCount: Int) -> PrebuiltLevels? = { _ in nil }
    ) -> LevelReport {
        var report = LevelReport(budgetBytes: store.budget.limitBytes)
        for asked in requests {
            var request = asked
            if asked.kind == .plain {
                // A deferred waveform's region: its frames first (within the sample budget), then its levels from them.
                guard case .frames(let frames) = store.frames(for: asked), publishFrames(frames, for: asked),
                    let next = levelRequest(region: asked.region), next.kind == .levels
                else { continue }
                request = next
            }
            switch store.levels(for: request, margin: margin, prebuilt: prebuilt) {
            case .levels(let levels):
                if publishLevels(levels, for: request) { report.count(levels, for: request, margin: margin) }
            case .doesNotFit(let bytes):
                report.unfit += 1
                report.unfitBytes += bytes
            }
        }
        return report
    }
}

/// What a pass of level building did, and the one line to say when some levels did not fit.
public struct LevelReport: Sendable, Equatable {
    /// Regions given levels.
    public var published = 0
    /// Of those, regions given only the levels of their own reach (no bend margin) for lack of room.
    public var reduced = 0
    /// Regions left plain: not even their reach's levels fit.
    public var unfit = 0
    /// What the unfit regions' levels would take, bytes.
    public var unfitBytes = 0
    public var budgetBytes: Int

    public init(budgetBytes: Int) {
        self.budgetBytes = budgetBytes
    }

    mutating func count(_ levels: RegionLevels, for request: LevelRequest, margin: Bool) {
        published += 1
        if margin && levels.levelCount < request.levelCount { reduced += 1 }
    }

    public static func + (a: LevelReport, b: LevelReport) -> LevelReport {
        var sum = a
        sum.published += b.published
        sum.reduced += b.reduced
        sum.unfit += b.unfit
        sum.unfitBytes += b.unfitBytes
        return sum
    }

    /// One warning line when levels did not fit the budget (nil when everything fitted).
    public var warning: String? {
        guard unfit > 0 || reduced > 0 else { return nil }
        let budget = LevelBudget.describe(budgetBytes)
        if unfit == 0 {
            return "band-limited levels: \(reduced) region(s) got only the levels their zones reach, without the margin for "
                + "wider bends, to stay within the \(budget) level budget (--level-memory)"
        }
        return "band-limited levels: \(unfit) region(s) need \(LevelBudget.describe(unfitBytes)), more than the \(budget) level "
            + "budget (--level-memory) holds: they play without band-limiting (aliasing when transposed up)"
    }
}

/// One region of one program of a bank: what a builder remembers it has already reported.
struct RegionKey: Hashable {
    var program: Int
    var region: Int
}
