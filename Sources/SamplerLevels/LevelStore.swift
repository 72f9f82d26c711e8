import Sampler
import Synchronization

/// Builds levels under a budget and shares them: a region of the same waveform and loop in several
/// programs (presets sharing a sample folder, a SoundFont's presets sharing its samples) gets one
/// `RegionLevels`, built once. Any thread but the render thread.
public final class LevelStore: Sendable {
    /// The process's store, charging `LevelBudget.shared`.
    public static let shared = LevelStore(budget: .shared)

    public let budget: LevelBudget

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

    private let entries = Mutex<[Key: Entry]>([:])
    private let threads = Atomic<Int>(1)

    public init(budget: LevelBudget) {
        self.budget = budget
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
        let widest = request.reachLevelCount < request.levelCount ? [request.levelCount, request.reachLevelCount] : [request.levelCount]
        let counts = margin ? widest : [request.reachLevelCount]
        let frames = LevelBuilder.frames(for: request), channels = request.waveform.channelCount
        for count in counts {
            // Levels alive for another region of the same sample serve when they reach as far: a
            // render's reach-only levels must not stand in for a request with the bend margin.
            for width in widest where width >= count {
                if let found = alive(request, levelCount: width) { return .levels(found) }
            }
            let bytes = RegionLevels.byteCount(frames: frames, levelCount: count, channelCount: channels, bytesPerSample: request.waveform.bytesPerFrame)
            guard budget.reserve(bytes) else { continue }
            let budget = budget
            let built = LevelBuilder.levels(for: request, levelCount: count, threads: buildThreads) { budget.refund($0) }
            let key = Key(waveform: ObjectIdentifier(request.waveform), loop: request.loop, levelCount: count)
            // Two builders may have made the same levels at once: the first one stored is shared.
            return .levels(entries.withLock { entries in
                if let other = entries[key], other.waveform === request.waveform, let levels = other.levels { return levels }
                entries[key] = Entry(waveform: request.waveform, levels: built)
                return built
            })
        }
        return .doesNotFit(bytes: RegionLevels.byteCount(
            frames: frames, levelCount: request.reachLevelCount, channelCount: channels, bytesPerSample: request.waveform.bytesPerFrame))
    }

    /// The memory `request`'s levels would take if built now with `levelCount` levels (0 if alive already).
    public func cost(of request: LevelRequest) -> Int {
        if alive(request, levelCount: request.levelCount) != nil { return 0 }
        return RegionLevels.byteCount(
            frames: LevelBuilder.frames(for: request), levelCount: request.levelCount, channelCount: request.waveform.channelCount,
            bytesPerSample: request.waveform.bytesPerFrame)
    }

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
