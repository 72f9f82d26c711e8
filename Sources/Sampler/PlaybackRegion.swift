/// One band-limited level of a region (see `BandLimitedLevels`): its channels' stored frame 0
/// (`right` == `left` for mono) and how many stored frames make one source frame (shift 0 or 1).
struct PlaybackLevel {
    var left: UnsafePointer<Float>
    var right: UnsafePointer<Float>
    var oversamplingShift: Int
}

/// A waveform with one particular loop (or none), as the voices read it. Plain data pointing into
/// storage owned by `RegionStorage`; read on the render thread.
///
/// Each level holds the region as it plays: for a looped region, the frames up to the loop end
/// and then the loop again, filtered, up to `wrapFrame` (+ the kernel's guard). A voice reads
/// straight on to `wrapFrame` and jumps back one loop length; past `loopEnd + loopTailFrames −
/// guard` the filtered data repeats exactly, so the jump is inaudible for every kernel.
struct PlaybackRegion {
    /// `BandLimitedLevels.count` levels.
    var levels: UnsafePointer<PlaybackLevel>
    var isStereo: Bool
    /// Playback stops on reaching this frame (unlooped), or this is the loop end (exclusive).
    var endFrame: Int
    var loopStartFrame: Int
    var isLooped: Bool
    var sampleRate: Double

    /// Looped voices jump back one loop length on reaching this frame.
    var wrapFrame: Int

    var loopLength: Int { endFrame - loopStartFrame }
}

/// Builds and owns the regions of a program: one per distinct (waveform, loop) pair, each with
/// its levels. Control thread only (the render side reads the `regions` copy the program makes).
///
/// Memory per source frame and channel: 2 + 2 + 1 + 1 + 1 + 1 = 8 stored floats (32 bytes) when a
/// zone reaches steps above 4, 5 (20 bytes) for one that stays within 2 (drums, a multisample's
/// inner zones), besides the 4 of the waveform itself, which is kept (zones may make further regions
/// of it).
final class RegionStorage {
    private var buffers: [UnsafeMutablePointer<Float>] = []
    private var levelTables: [UnsafeMutablePointer<PlaybackLevel>] = []
    private var waveforms: [SamplerWaveform] = []
    private(set) var regions: [PlaybackRegion] = []
    private var indexByKey: [RegionKey: Int] = [:]

    private struct RegionKey: Hashable {
        var waveform: ObjectIdentifier
        var loop: SamplerLoop?
    }

    /// Largest step asked of each region so far (see `reach`).
    private var largestSteps: [RegionKey: Double] = [:]

    /// Records that a zone may play `waveform` with `loop` at steps up to `step`: its region gets
    /// the levels up to the first that covers it (all, for an unknown region). Call before `region`.
    func reach(_ waveform: SamplerWaveform, loop: SamplerLoop?, step: Double) {
        let key = RegionKey(waveform: ObjectIdentifier(waveform), loop: loop)
        largestSteps[key] = max(largestSteps[key] ?? 0, step.isFinite ? step : .infinity)
    }

    /// Index of the region for `waveform` with `loop` (nil: play once), creating it on first use.
    func region(for waveform: SamplerWaveform, loop: SamplerLoop?) -> Int {
        let key = RegionKey(waveform: ObjectIdentifier(waveform), loop: loop)
        if let index = indexByKey[key] { return index }
        waveforms.append(waveform)
        let endFrame = loop?.endFrame ?? waveform.frameCount
        let built = levelCount(for: waveform, loop: loop, largestStep: largestSteps[key] ?? .infinity)
        let region = PlaybackRegion(
            levels: UnsafePointer(levels(of: waveform, loop: loop, built: built)), isStereo: waveform.channelCount == 2,
            endFrame: endFrame, loopStartFrame: loop?.startFrame ?? 0,
            isLooped: loop != nil, sampleRate: waveform.sampleRate,
            wrapFrame: endFrame + BandLimitedLevels.loopTailFrames(levels: built) - BandLimitedLevels.guardFrames)
        regions.append(region)
        indexByKey[key] = regions.count - 1
        return regions.count - 1
    }

    /// How many levels the region gets: up to the first whose step covers `largestStep`, for a
    /// short region at most to step 4 (see `BandLimitedLevels.shortRegionFrames`).
    private func levelCount(for waveform: SamplerWaveform, loop: SamplerLoop?, largestStep: Double) -> Int {
        let covering = (BandLimitedLevels.specs.firstIndex { $0.maxStep >= largestStep } ?? BandLimitedLevels.count - 1) + 1
        let short = (loop?.endFrame ?? waveform.frameCount) <= BandLimitedLevels.shortRegionFrames
        return short ? min(covering, BandLimitedLevels.specs.firstIndex { $0.maxStep == BandLimitedLevels.shortRegionTopStep }! + 1) : covering
    }

    /// The first `built` levels of every channel of the region as it plays; the table's entries
    /// above them repeat the last one built.
    private func levels(of waveform: SamplerWaveform, loop: SamplerLoop?, built: Int) -> UnsafeMutablePointer<PlaybackLevel> {
        let guardFrames = BandLimitedLevels.guardFrames
        // Frames the voices can reach (before the guard).
        let frames = loop.map { $0.endFrame + BandLimitedLevels.loopTailFrames(levels: built) - guardFrames } ?? waveform.frameCount
        let perChannel = (0..<waveform.channelCount).map { channel in
            let played = PlayedChannel(frames: waveform.frames(channel: channel), frameCount: waveform.frameCount, loop: loop)
            return LevelBuilder.withShared { $0.build(frames: frames, levels: built, input: played) }
        }
        let table = UnsafeMutablePointer<PlaybackLevel>.allocate(capacity: BandLimitedLevels.count)
        for index in 0..<BandLimitedLevels.count {
            let level = min(index, built - 1), spec = BandLimitedLevels.specs[level]
            let offset = guardFrames * spec.oversampling
            let left = UnsafePointer(perChannel[0][level] + offset)
            let right = perChannel.count == 2 ? UnsafePointer(perChannel[1][level] + offset) : left
            (table + index).initialize(to: PlaybackLevel(left: left, right: right, oversamplingShift: spec.oversampling == 2 ? 1 : 0))
        }
        buffers += perChannel.flatMap { $0 }
        levelTables.append(table)
        return table
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
        for table in levelTables { table.deallocate() }
    }
}
