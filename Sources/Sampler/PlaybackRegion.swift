import Synchronization

/// One band-limited level of a region (see `LevelLayout`): its channels' stored frame 0
/// (`right` == `left` for mono) and how many stored frames make one source frame (1 … 4).
/// Stored as Float, or as 16-bit integers times a scale per channel (`scale`: left or mono;
/// the levels of a 16-bit waveform, and its plain form with 2⁻¹⁵).
struct PlaybackLevel {
    var left: UnsafeRawPointer
    var right: UnsafeRawPointer
    var oversampling: Int
    var isInt16 = false
    var scale: Float = 1
    var rightScale: Float = 1
}

/// A waveform with one particular loop (or none), as the voices read it. Plain data pointing into
/// storage owned by `RegionStorage`; read on the render thread.
///
/// Two forms: the plain region (`isPlain`: one level, the frames as they play, unfiltered, read
/// with the 4-point kernel), ready as soon as the program exists, and the band-limited one, built
/// later by need on the loading side (`SamplerLevels`) and published through `cell`.
/// A voice takes whichever exists at its note-on (`strike(stamp:)`) and keeps it for its whole life, so
/// no note ever switches kernels mid-way.
///
/// Each level holds the region as it plays: for a looped region, the frames up to the loop end
/// and then the loop again, filtered, up to `wrapFrame` (+ the kernel's guard). A voice reads
/// straight on to `wrapFrame` and jumps back one loop length; past `loopEnd + loopTailFrames −
/// guard` the filtered data repeats exactly, so the jump is inaudible for every kernel.
struct PlaybackRegion {
    /// `LevelLayout.count` levels (plain: one).
    var levels: UnsafePointer<PlaybackLevel>
    var isStereo: Bool
    /// The original frames, read with the 4-point cubic whatever the quality (levels not built yet).
    var isPlain: Bool
    /// What it shares with the loading side: the published band-limited form, the strike stamp.
    var cell: UnsafePointer<RegionCell>
    /// Playback stops on reaching this frame (unlooped), or this is the loop end (exclusive).
    var endFrame: Int
    var loopStartFrame: Int
    var isLooped: Bool
    var sampleRate: Double

    /// Looped voices jump back one loop length on reaching this frame.
    var wrapFrame: Int

    var loopLength: Int { endFrame - loopStartFrame }

    /// Render thread, at note-on: records the strike, then takes the band-limited form if it has
    /// been published (counted as held: the voice calls `cell.pointee.levels.release()` when it
    /// stops; `held` is nil when it got this plain form instead).
    @inline(__always)
    func strike(stamp: UInt64) -> (region: PlaybackRegion, held: UnsafePointer<RegionCell>?) {
        cell.pointee.lastStrike.store(stamp, ordering: .relaxed)
        guard let published = cell.pointee.levels.acquire() else { return (self, nil) }
        return (published, cell)
    }
}

/// Makes and owns the regions of a program: one per distinct (waveform, loop) pair, each with its
/// plain form at once, and its band-limited form while the loading side has published levels for
/// it (`publish`, `withdraw`, `reclaim`). Control side, under the program's lock; the render side
/// reads only the `regions` copy the program makes and the cells.
///
/// Memory per source frame and channel: a looped region's plain copy, 1 float (one per waveform
/// and loop, shared with other programs: `SamplerWaveform.loopedCopy`); the levels it is given
/// (see `LevelLayout`); besides the waveform itself, which is kept (zones may make further regions of it).
final class RegionStorage {
    private var plainTables: [UnsafeMutablePointer<PlaybackLevel>] = []
    private(set) var regions: [PlaybackRegion] = []
    private var indexByKey: [RegionKey: Int] = [:]
    /// Per region: what it needs from the level builder.
    private(set) var needs: [LevelRequest?] = []
    /// Per region: its published form and the levels it points into, while published.
    private var published: [(form: UnsafeMutablePointer<PlaybackRegion>, levels: RegionLevels)?] = []
    /// Forms withdrawn and not freed yet: a voice may still read them.
    private var withdrawn: [(region: Int, form: UnsafeMutablePointer<PlaybackRegion>, levels: RegionLevels)] = []
    /// One per region (`PlaybackRegion.cell`), allocated as regions are made.
    private var cells: [UnsafeMutablePointer<RegionCell>] = []
    /// Regions whose levels are not published (any thread may read it).
    let awaiting = Atomic<Int>(0)

    /// Frames of the loop played on past its end in the plain form before the voice wraps: the
    /// 4-point window reaches 2 frames ahead.
    static let plainLoopTailFrames = 4

    private struct RegionKey: Hashable {
        var waveform: ObjectIdentifier
        var loop: SamplerLoop?
    }

    /// Largest step asked of each region so far (see `reach`).
    private var largestSteps: [RegionKey: (reach: Double, withFloor: Double)] = [:]

    /// Records that a zone may play `waveform` with `loop` at steps up to `reach` (`withFloor`:
    /// with the margin for bends the preset does not foresee). Call before `region`.
    func reach(_ waveform: SamplerWaveform, loop: SamplerLoop?, step reach: Double, withFloor: Double) {
        let key = RegionKey(waveform: ObjectIdentifier(waveform), loop: loop)
        let known = largestSteps[key] ?? (0, 0)
        func finite(_ step: Double) -> Double { step.isFinite ? step : .infinity }
        largestSteps[key] = (max(known.reach, finite(reach)), max(known.withFloor, finite(withFloor)))
    }

    /// Index of the region for `waveform` with `loop` (nil: play once), creating its plain form on
    /// first use (looped: a guarded copy of the frames as they play, ~1 instruction per frame).
    func region(for waveform: SamplerWaveform, loop: SamplerLoop?) -> Int {
        let key = RegionKey(waveform: ObjectIdentifier(waveform), loop: loop)
        if let index = indexByKey[key] { return index }
        let endFrame = loop?.endFrame ?? waveform.frameCount
        let wrapFrame = endFrame + (loop == nil ? 0 : Self.plainLoopTailFrames)
        let table = UnsafeMutablePointer<PlaybackLevel>.allocate(capacity: 1)
        // Unlooped: the waveform's own guarded frames; looped: a copy with the loop played on past its end.
        let channels = (0..<waveform.channelCount).map { channel in
            loop.map { waveform.loopedCopy(channel: channel, loop: $0, frames: wrapFrame) } ?? waveform.frames(channel: channel)
        }
        let isInt16 = channels[0].isPCM16
        table.initialize(to: PlaybackLevel(
            left: channels[0].raw, right: channels.last!.raw, oversampling: 1, isInt16: isInt16,
            scale: isInt16 ? StoredFrames.pcm16Scale : 1, rightScale: isInt16 ? StoredFrames.pcm16Scale : 1))
        plainTables.append(table)
        let cell = UnsafeMutablePointer<RegionCell>.allocate(capacity: 1)
        cell.initialize(to: RegionCell())
        cells.append(cell)
        let index = regions.count
        regions.append(PlaybackRegion(
            levels: UnsafePointer(table), isStereo: waveform.channelCount == 2, isPlain: true, cell: UnsafePointer(cell),
            endFrame: endFrame, loopStartFrame: loop?.startFrame ?? 0, isLooped: loop != nil, sampleRate: waveform.sampleRate,
            wrapFrame: wrapFrame))
        let steps = largestSteps[key] ?? (.infinity, .infinity)
        let levelCount = LevelLayout.levelCount(frames: endFrame, largestStep: steps.withFloor)
        // 0 levels (a region too long for them): it stays plain, nothing to build.
        needs.append(levelCount == 0 ? nil : LevelRequest(
            region: index, waveform: waveform, loop: loop, levelCount: levelCount,
            reachLevelCount: min(levelCount, LevelLayout.levelCount(frames: endFrame, largestStep: steps.reach))))
        published.append(nil)
        if levelCount > 0 { awaiting.add(1, ordering: .relaxed) }
        indexByKey[key] = index
        return index
    }

    /// What region `index` still needs: nil when it has its levels, needs none, or cannot take new
    /// ones yet (its withdrawn levels still wait for their voices).
    func request(_ index: Int) -> LevelRequest? {
        guard published[index] == nil, !withdrawn.contains(where: { $0.region == index }) else { return nil }
        return needs[index]
    }

    /// The levels region `index` plays now, if any.
    func levels(_ index: Int) -> RegionLevels? { published[index]?.levels }

    /// The stamp of the last note-on on region `index` (0: never struck).
    func lastStrike(_ index: Int) -> UInt64 { cells[index].pointee.lastStrike.load(ordering: .relaxed) }

    /// Publishes `levels` as `request`'s region's band-limited form (a release store the render
    /// thread acquires at note-on). Returns false, publishing nothing, if it has its levels
    /// already, or its withdrawn ones are not freed yet (`reclaim`) and `levels` are others.
    func publish(_ levels: RegionLevels, for request: LevelRequest) -> Bool {
        let index = request.region
        precondition(needs.indices.contains(index), "a request of another program")
        if published[index] == nil, let held = withdrawn.firstIndex(where: { $0.region == index && $0.levels === levels }) {
            // The same levels again while voices still hold them: published again as they are.
            let entry = withdrawn.remove(at: held)
            published[index] = (entry.form, entry.levels)
            cells[index].pointee.levels.address.store(Int(bitPattern: entry.form), ordering: .sequentiallyConsistent)
            awaiting.subtract(1, ordering: .relaxed)
            return true
        }
        guard let need = needs[index], published[index] == nil, !withdrawn.contains(where: { $0.region == index }) else { return false }
        precondition(need.waveform === request.waveform && need.loop == request.loop, "a request of another program")
        precondition(levels.channelCount == request.waveform.channelCount, "levels for another region")
        precondition(levels.frames >= regions[index].endFrame, "levels shorter than the region")
        var region = regions[index]
        region.levels = UnsafePointer(levels.table)
        region.isPlain = false
        if region.isLooped { region.wrapFrame = levels.frames }
        let form = UnsafeMutablePointer<PlaybackRegion>.allocate(capacity: 1)
        form.initialize(to: region)
        published[index] = (form, levels)
        cells[index].pointee.levels.address.store(Int(bitPattern: form), ordering: .sequentiallyConsistent)
        awaiting.subtract(1, ordering: .relaxed)
        return true
    }

    /// Withdraws region `index`'s levels: later note-ons play it plain; the form is freed by
    /// `reclaim` once no voice holds it. Returns false if it had none.
    func withdraw(_ index: Int) -> Bool {
        guard let entry = published[index] else { return false }
        cells[index].pointee.levels.address.store(0, ordering: .sequentiallyConsistent)
        published[index] = nil
        withdrawn.append((index, entry.form, entry.levels))
        awaiting.add(1, ordering: .relaxed)
        return true
    }

    /// Frees the withdrawn forms no voice holds any more; returns how many still wait for their voices.
    func reclaim() -> Int {
        withdrawn.removeAll { entry in
            guard cells[entry.region].pointee.levels.readers.load(ordering: .sequentiallyConsistent) == 0 else { return false }
            entry.form.deinitialize(count: 1).deallocate()
            return true
        }
        return withdrawn.count
    }

    /// Runs when the program goes, after its bank retired: no voice reads any form.
    deinit {
        for table in plainTables { table.deallocate() }
        for entry in published { entry?.form.deinitialize(count: 1).deallocate() }
        for entry in withdrawn { entry.form.deinitialize(count: 1).deallocate() }
        for cell in cells { cell.deinitialize(count: 1).deallocate() }
    }
}
