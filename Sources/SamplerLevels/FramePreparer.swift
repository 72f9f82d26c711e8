import Sampler

/// Gives deferred waveforms' regions (a SoundFont's samples under `play`) their frames, within the
/// store's sample budget: the live builder's (`LevelPublisher`) first duty, before any levels, since
/// a note on an unprepared region is silent. In this order:
///
/// 1. before the first period, every region of the parts' start programs (`prepareStart`);
/// 2. the regions the render thread struck unprepared (their notes were silent, and counted), the
///    most recent first (`prepareStruck`);
/// 3. every region of the program a part selected most recently and not prepared since
///    (`prepareSelected`), one region a turn, so that a strike waits at most one region's read.
///
/// When frames do not fit, the frames of regions used least recently (struck, or their program
/// selected) before the one asking are withdrawn (`FormEviction`). A region whose frames cannot be
/// read, or need more than the whole budget, is abandoned with one log line: it stays silent.
/// Loading side; one thread at a time (the publisher's).
final class FramePreparer {
    private let programs: [SamplerProgram]
    private let store: LevelStore
    private let log: @Sendable (String) -> Void
    /// Per program: the selection stamp it was last prepared for.
    private var preparedSelection: [UInt64]
    /// Regions of the program being prepared that could not be this pass (no room).
    private var skipped = Set<RegionKey>()
    /// Struck regions already said not to fit.
    private var notedUnfit = Set<RegionKey>()
    /// Regions whose frames were withdrawn to make room, with their last use then (strike or
    /// selection): they wait for a use after it (read again for an older one, they would undo the
    /// withdrawal that made room for something used since).
    private var withdrawnAt: [RegionKey: UInt64] = [:]
    /// Each program's index, to name the regions `FormEviction` withdrew.
    private let indexOf: [ObjectIdentifier: Int]

    init(programs: [SamplerProgram], store: LevelStore, log: @escaping @Sendable (String) -> Void) {
        self.programs = programs
        self.store = store
        self.log = log
        preparedSelection = [UInt64](repeating: 0, count: programs.count)
        indexOf = Dictionary(programs.enumerated().map { (ObjectIdentifier($1), $0) }) { first, _ in first }
    }

    /// Frames of every region of `programs.prefix(count)`; what that read and how long it took.
    func prepareStart(count: Int) -> FrameReport {
        let start = ContinuousClock.now
        var report = FrameReport()
        for p in 0..<min(count, programs.count) {
            for request in programs[p].levelRequests where request.kind == .plain {
                if prepare(request, of: p, usedAt: 0) == .published { report.prepared += 1 } else { report.unprepared += 1 }
            }
        }
        report.bytes = store.sampleBudget.usedBytes
        let elapsed = (ContinuousClock.now - start).components
        report.milliseconds = Double(elapsed.seconds) * 1e3 + Double(elapsed.attoseconds) * 1e-15
        return report
    }

    /// Frames of `struck` (`.plain` requests of struck regions, with their program and stamp), the
    /// most recent first; true if it published any.
    func prepareStruck(_ struck: [(program: Int, request: LevelRequest, stamp: UInt64)]) -> Bool {
        var published = false
        for (p, request, stamp) in struck.sorted(by: { $0.stamp > $1.stamp }) {
            let key = RegionKey(program: p, region: request.region)
            if isWithdrawn(key, since: stamp) { continue }
            switch prepare(request, of: p, usedAt: stamp) {
            case .published: published = true
            case .waiting, .abandoned: break
            case .noRoom:
                guard notedUnfit.insert(key).inserted else { break }
                log("sample data: a region of \(request.waveform.frameCount) frames, struck, does not fit the "
                    + "\(LevelBudget.describe(store.sampleBudget.limitBytes)) sample budget (--sample-memory) beside what was "
                    + "played since: its notes are silent until room is made")
            }
        }
        return published
    }

    /// One region of the program selected most recently and not prepared since; false when no
    /// such program is left.
    func prepareSelected() -> Bool {
        var chosen: (program: Int, stamp: UInt64)?
        for (p, program) in programs.enumerated() {
            let stamp = program.selectionStamp
            if stamp > preparedSelection[p], stamp > (chosen?.stamp ?? 0) { chosen = (p, stamp) }
        }
        guard let (p, stamp) = chosen else { return false }
        let key = { (region: Int) in RegionKey(program: p, region: region) }
        let next = programs[p].levelRequests.first { $0.kind == .plain && !skipped.contains(key($0.region)) && !isWithdrawn(key($0.region), since: stamp) }
        if let request = next {
            if prepare(request, of: p, usedAt: stamp) != .published { skipped.insert(key(request.region)) }
            return true
        }
        preparedSelection[p] = stamp
        skipped = skipped.filter { $0.program != p }
        return true
    }

    /// Whether `key`'s frames were withdrawn to make room after a use at `stamp`.
    private func isWithdrawn(_ key: RegionKey, since stamp: UInt64) -> Bool {
        guard let at = withdrawnAt[key] else { return false }
        if stamp > at { withdrawnAt[key] = nil }
        return stamp <= at
    }

    /// What `prepare` did.
    private enum Outcome {
        case published
        /// Frames were withdrawn to make room, their memory not back yet: try again later.
        case waiting
        /// Nothing used before it could make room.
        case noRoom
        /// Unreadable, or larger than the whole budget: not asked for again.
        case abandoned
    }

    /// Reads and publishes `request`'s frames, withdrawing frames used before `stamp` if they do not fit.
    private func prepare(_ request: LevelRequest, of p: Int, usedAt stamp: UInt64) -> Outcome {
        let program = programs[p]
        switch store.frames(for: request) {
        case .frames(let frames):
            return program.publishFrames(frames, for: request) ? .published : .waiting
        case .doesNotFit(let bytes) where bytes > store.sampleBudget.limitBytes:
            program.abandonFrames(region: request.region)
            log("sample data: a region of \(request.waveform.frameCount) frames needs \(LevelBudget.describe(bytes)), more than the "
                + "whole \(LevelBudget.describe(store.sampleBudget.limitBytes)) sample budget (--sample-memory): its notes are silent")
            return .abandoned
        case .doesNotFit(let bytes):
            let eviction = FormEviction.withdraw(.plain, from: programs, freeing: bytes, budget: store.sampleBudget, olderThan: stamp)
            for (program, region) in eviction.withdrawn {
                guard let index = indexOf[ObjectIdentifier(program)] else { continue }
                withdrawnAt[RegionKey(program: index, region: region)] = max(program.lastStrike(region: region), program.selectionStamp)
            }
            // Frames withdrawn just now free their memory when the last reference goes, which
            // another thread may still hold for a moment: no room is said only when nothing was.
            guard case .frames(let frames) = store.frames(for: request) else {
                return eviction.waiting || !eviction.withdrawn.isEmpty ? .waiting : .noRoom
            }
            return program.publishFrames(frames, for: request) ? .published : .waiting
        case .unreadable(let reason, let isNew):
            program.abandonFrames(region: request.region)
            if isNew { log("sample data: \(reason): its notes are silent") }
            return .abandoned
        }
    }
}

/// What preparing frames read (`LevelPublisher.startPreparation`).
public struct FrameReport: Sendable, Equatable {
    /// Regions given their frames.
    public var prepared = 0
    /// Regions left without: they did not fit the sample budget, or cannot be read.
    public var unprepared = 0
    /// What the sample budget holds afterwards, bytes.
    public var bytes = 0
    public var milliseconds = 0.0

    public init() {}
}
