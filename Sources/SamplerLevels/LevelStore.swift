import DSP
import Sampler
import Synchronization

/// Builds levels under a budget, reads deferred waveforms' frames under another, and shares both:
/// a region of the same waveform and loop in several programs (presets sharing a sample folder, a
/// SoundFont's presets sharing its samples) gets one `RegionLevels`, built once, and one
/// `RegionFrames`, read once. Any thread but the render thread.
public final class LevelStore: Sendable {
    /// The process's store, charging `LevelBudget.shared` and `LevelBudget.sharedSamples`.
    public static let shared = LevelStore(budget: .shared, sampleBudget: .sharedSamples)

    /// What levels take (`--level-memory`).
    public let budget: LevelBudget
    /// What frames read on need take (`--sample-memory`).
    public let sampleBudget: LevelBudget

    private struct Key: Hashable {
        var waveform: ObjectIdentifier
        var loop: SamplerLoop?
        var levelCount: Int
    }

    /// Levels alive, weakly: freed when the last program lets go (the waveform is kept too, weakly,
    /// so that an identifier reused by a later waveform never matches).
    private struct Entry {
        weak var waveform: SamplerWaveform?
        weak var levels: RegionLevels?
    }

    private let entries = ControlLocked<[Key: Entry]>([:])
    private let threads = Atomic<Int>(1)
    /// Frames read and alive, and the waveforms found unreadable (with why), weakly as `entries`.
    private let frameEntries = ControlLocked<(alive: [FrameKey: FrameEntry], unreadable: [ObjectIdentifier: Unreadable])>(([:], [:]))

    private struct FrameKey: Hashable {
        var waveform: ObjectIdentifier
        var loop: SamplerLoop?
    }

    private struct FrameEntry {
        weak var waveform: SamplerWaveform?
        weak var frames: RegionFrames?
    }

    private struct Unreadable {
        weak var waveform: SamplerWaveform?
        var reason: String
    }

    public init(budget: LevelBudget, sampleBudget: LevelBudget = LevelBudget(limitBytes: LevelBudget.defaultLimitBytes)) {
        self.budget = budget
        self.sampleBudget = sampleBudget
    }

    /// Threads one region's levels are built on (1…16; an offline render sets its `--threads`,
    /// live building stays on its one low-priority thread). The levels are the same either way.
    public var buildThreads: Int {
        get { threads.load(ordering: .relaxed) }
        set { threads.store(min(max(newValue, 1), 16), ordering: .relaxed) }
    }

    /// The outcome of `levels(for:)`.
    public enum Supply {
        /// Built, or found already built for another program.
        case levels(RegionLevels)
        /// Neither `levelCount` nor `reachLevelCount` levels fit the budget: they would take `bytes`.
        case doesNotFit(bytes: Int)
    }

    /// `request`'s levels: found alive (no cost), else built if they fit the budget, first with
    /// `levelCount` levels, else with `reachLevelCount` (the bend margin left out); without
    /// `margin`, only with `reachLevelCount` (levels found alive with more are taken as they are).
    public func levels(for request: LevelRequest, margin: Bool = true) -> Supply {
        levels(for: request, margin: margin) { _ in nil }
    }

    /// The same, taking the levels from `prebuilt` when they were built ahead (`LevelPrefetch`)
    /// with the count the budget chooses.
    func levels(for request: LevelRequest, margin: Bool, prebuilt: (_ levelCount: Int) -> PrebuiltLevels?) -> Supply {
        precondition(request.kind == .levels, "a request for frames (`frames(for:)`)")
        let widest = request.reachLevelCount < request.levelCount ? [request.levelCount, request.reachLevelCount] : [request.levelCount]
        let counts = margin ? widest : [request.reachLevelCount]
        let frames = LevelBuilder.frames(for: request)
        for count in counts {
            // Levels alive for another region of the same sample serve when they reach as far: a
            // render's reach-only levels must not stand in for a request with the bend margin.
            for width in widest where width >= count {
                if let found = alive(request, levelCount: width) { return .levels(found) }
            }
            let bytes = Self.bytes(of: request, levelCount: count)
            guard budget.reserve(bytes) else { continue }
            let budget = budget
            let channels = prebuilt(count)?.adopt() ?? LevelBuilder.channels(for: request, levelCount: count, threads: buildThreads)
            let built = RegionLevels(frames: frames, channels: channels) { budget.refund($0) }
            let key = Key(waveform: ObjectIdentifier(request.waveform), loop: request.loop, levelCount: count)
            // Two builders may have made the same levels at once: the first one stored is shared.
            return .levels(entries.withLock { entries in
                if let other = entries[key], other.waveform === request.waveform, let levels = other.levels { return levels }
                entries[key] = Entry(waveform: request.waveform, levels: built)
                return built
            })
        }
        return .doesNotFit(bytes: Self.bytes(of: request, levelCount: request.reachLevelCount))
    }

    /// The level count `levels(for:margin:)` builds first when the budget has room.
    static func preferredLevelCount(for request: LevelRequest, margin: Bool) -> Int {
        margin ? request.levelCount : request.reachLevelCount
    }

    /// The memory `levelCount` levels of `request`'s region take, bytes.
    static func bytes(of request: LevelRequest, levelCount: Int) -> Int {
        RegionLevels.byteCount(
            frames: LevelBuilder.frames(for: request), levelCount: levelCount, channelCount: request.waveform.channelCount,
            bytesPerSample: request.waveform.bytesPerFrame)
    }

    /// The memory `request`'s levels would take if built now with `levelCount` levels (0 if alive already).
    public func cost(of request: LevelRequest) -> Int {
        if alive(request, levelCount: request.levelCount) != nil { return 0 }
        return Self.bytes(of: request, levelCount: request.levelCount)
    }

    /// Whether `request`'s region has `levelCount` levels alive (for another program, or an earlier use).
    func isAlive(_ request: LevelRequest, levelCount: Int) -> Bool { alive(request, levelCount: levelCount) != nil }

    private func alive(_ request: LevelRequest, levelCount: Int) -> RegionLevels? {
        let key = Key(waveform: ObjectIdentifier(request.waveform), loop: request.loop, levelCount: levelCount)
        return entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard entry.waveform === request.waveform, let levels = entry.levels else {
                entries[key] = nil  // freed: forget it
                return nil
            }
            return levels
        }
    }
}

extension LevelStore {
    /// The outcome of `frames(for:)`.
    public enum FrameSupply {
        /// Read, or found already read for another program.
        case frames(RegionFrames)
        /// They do not fit the sample budget beside what it holds: they would take `bytes`.
        case doesNotFit(bytes: Int)
        /// The source cannot give them (`reason`, one line naming the file and the sample);
        /// `isNew` the first time this waveform failed (later requests are answered so at once).
        case unreadable(reason: String, isNew: Bool)
    }

    /// A `.plain` request's frames, read from its deferred waveform's source: found alive (no
    /// cost), else read if they fit the sample budget (charged until freed).
    public func frames(for request: LevelRequest) -> FrameSupply {
        let key = FrameKey(waveform: ObjectIdentifier(request.waveform), loop: request.loop)
        let known: FrameSupply? = frameEntries.withLock { entries in
            if let entry = entries.alive[key] {
                if entry.waveform === request.waveform, let frames = entry.frames { return .frames(frames) }
                entries.alive[key] = nil  // freed: forget it
            }
            if let failed = entries.unreadable[key.waveform] {
                if failed.waveform === request.waveform { return .unreadable(reason: failed.reason, isNew: false) }
                entries.unreadable[key.waveform] = nil
            }
            return nil
        }
        if let known { return known }
        let bytes = RegionFrames.byteCount(for: request)
        guard sampleBudget.reserve(bytes) else { return .doesNotFit(bytes: bytes) }
        let budget = sampleBudget
        let read: RegionFrames
        do {
            read = try RegionFrames(reading: request) { budget.refund($0) }
        } catch {
            budget.refund(bytes)
            return frameEntries.withLock { entries in
                let isNew = entries.unreadable[key.waveform]?.waveform !== request.waveform
                if isNew { entries.unreadable[key.waveform] = Unreadable(waveform: request.waveform, reason: error.description) }
                return .unreadable(reason: error.description, isNew: isNew)
            }
        }
        // Two readers may have read the same frames at once: the first one stored is shared.
        return .frames(frameEntries.withLock { entries in
            if let other = entries.alive[key], other.waveform === request.waveform, let frames = other.frames { return frames }
            entries.alive[key] = FrameEntry(waveform: request.waveform, frames: read)
            return read
        })
    }
}
