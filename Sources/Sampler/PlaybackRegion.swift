import Synchronization

/// One band-limited level of a region (see `BandLimitedLevels`): its channels' stored frame 0
/// (`right` == `left` for mono) and how many stored frames make one source frame (1 … 6).
struct PlaybackLevel {
    var left: UnsafePointer<Float>
    var right: UnsafePointer<Float>
    var oversampling: Int
}

/// A waveform with one particular loop (or none), as the voices read it. Plain data pointing into
/// storage owned by `RegionStorage`; read on the render thread.
///
/// Two forms: the plain region (`isPlain`: one level, the frames as they play, unfiltered, read
/// with the 4-point kernel), ready as soon as the program exists, and the band-limited one, built
/// later by need (`SamplerProgram.buildLevels`, `LevelPublisher`) and published through `levelSlot`.
/// A voice takes whichever exists at its note-on (`current()`) and keeps it for its whole life, so
/// no note ever switches kernels mid-way.
///
/// Each level holds the region as it plays: for a looped region, the frames up to the loop end
/// and then the loop again, filtered, up to `wrapFrame` (+ the kernel's guard). A voice reads
/// straight on to `wrapFrame` and jumps back one loop length; past `loopEnd + loopTailFrames −
/// guard` the filtered data repeats exactly, so the jump is inaudible for every kernel.
struct PlaybackRegion {
    /// `BandLimitedLevels.count` levels (plain: one).
    var levels: UnsafePointer<PlaybackLevel>
    var isStereo: Bool
    /// The original frames, read with the 4-point cubic whatever the quality (levels not built yet).
    var isPlain: Bool
    /// The band-limited form's address once published (0 before); release-stored by the builder.
    var levelSlot: UnsafePointer<Atomic<Int>>
    /// Playback stops on reaching this frame (unlooped), or this is the loop end (exclusive).
    var endFrame: Int
    var loopStartFrame: Int
    var isLooped: Bool
    var sampleRate: Double

    /// Looped voices jump back one loop length on reaching this frame.
    var wrapFrame: Int

    var loopLength: Int { endFrame - loopStartFrame }

    /// Render thread, at note-on: the band-limited form if it has been published (the acquire
    /// pairs with the builder's release, so its levels are visible), else this plain one.
    @inline(__always)
    func current() -> PlaybackRegion {
        let address = levelSlot.pointee.load(ordering: .acquiring)
        guard address != 0, let published = UnsafePointer<PlaybackRegion>(bitPattern: address) else { return self }
        return published.pointee
    }
}

/// Builds and owns the regions of a program, its variants, and any programs made sharing it (an
/// instrument's presets, whose kits and families use the same sample files): one per distinct
/// (waveform, loop) pair, each with its plain form at once and its band-limited levels when
/// `buildLevels` is called. Control thread, or one builder thread at a time, under `lock`; the
/// render side reads only the `regions` copy each program makes and the published slots.
///
/// Memory per source frame and channel: a looped region's plain copy, 1 float, and the levels: 4 + 3 + 2 + 2 + 1
/// + 1 = 13 stored floats (52 bytes) when a zone reaches steps above 4, else 12 (every region gets
/// the levels to step 4, `SamplerProgram.guaranteedStep`), besides the 4 of the waveform itself,
/// which is kept (zones may make further regions of it).
public final class RegionStorage {
    public init() {}

    /// Serialises making regions and building levels (control, renderer and builder threads;
    /// never the render thread).
    let lock = Mutex(())
    private var buffers: [UnsafeMutablePointer<Float>] = []
    private var levelTables: [UnsafeMutablePointer<PlaybackLevel>] = []
    private var published: [UnsafeMutablePointer<PlaybackRegion>] = []
    private var waveforms: [SamplerWaveform] = []
    private(set) var regions: [PlaybackRegion] = []
    private var indexByKey: [RegionKey: Int] = [:]
    /// Per region: its key and the levels it gets; nil once built.
    private var pending: [(waveform: SamplerWaveform, loop: SamplerLoop?, levels: Int)?] = []
    /// One slot per region (`PlaybackRegion.levelSlot`), allocated as regions are made.
    private var slots: [UnsafeMutablePointer<Atomic<Int>>] = []
    /// Per region: whether it gets band-limited levels at all (a region too long for them stays plain).
    private(set) var getsLevels: [Bool] = []

    /// Frames of the loop played on past its end in the plain form before the voice wraps: the
    /// 4-point window reaches 2 frames ahead.
    static let plainLoopTailFrames = 4

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

    /// Index of the region for `waveform` with `loop` (nil: play once), creating its plain form on
    /// first use (looped: a guarded copy of the frames as they play, ~1 instruction per frame).
    func region(for waveform: SamplerWaveform, loop: SamplerLoop?) -> Int {
        let key = RegionKey(waveform: ObjectIdentifier(waveform), loop: loop)
        if let index = indexByKey[key] {
            // Another program may reach further: a region not built yet gets the levels it needs.
            if let entry = pending[index] {
                pending[index]?.levels = max(entry.levels, levelCount(for: waveform, loop: loop, largestStep: largestSteps[key] ?? .infinity))
            }
            return index
        }
        waveforms.append(waveform)
        let endFrame = loop?.endFrame ?? waveform.frameCount
        let wrapFrame = endFrame + (loop == nil ? 0 : Self.plainLoopTailFrames)
        let table = UnsafeMutablePointer<PlaybackLevel>.allocate(capacity: 1)
        // Unlooped: the waveform's own guarded frames; looped: a copy with the loop played on past its end.
        let channels = (0..<waveform.channelCount).map { channel in
            loop == nil ? waveform.frames(channel: channel) : copy(played(waveform, channel: channel, loop: loop), frames: wrapFrame)
        }
        table.initialize(to: PlaybackLevel(left: channels[0], right: channels.last!, oversampling: 1))
        levelTables.append(table)
        let slot = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 1)
        slot.initialize(to: Atomic(0))
        slots.append(slot)
        regions.append(PlaybackRegion(
            levels: UnsafePointer(table), isStereo: waveform.channelCount == 2, isPlain: true, levelSlot: UnsafePointer(slot),
            endFrame: endFrame, loopStartFrame: loop?.startFrame ?? 0, isLooped: loop != nil, sampleRate: waveform.sampleRate,
            wrapFrame: wrapFrame))
        let built = levelCount(for: waveform, loop: loop, largestStep: largestSteps[key] ?? .infinity)
        // 0 levels (a region too long for them): it stays plain, nothing to build.
        pending.append(built == 0 ? nil : (waveform, loop, built))
        getsLevels.append(built > 0)
        indexByKey[key] = regions.count - 1
        return regions.count - 1
    }

    /// Builds region `index`'s band-limited levels, if not built yet, and publishes them.
    func buildLevels(_ index: Int) {
        guard let entry = pending[index] else { return }
        pending[index] = nil
        let (waveform, loop, built) = entry
        var region = regions[index]
        region.levels = UnsafePointer(levels(of: waveform, loop: loop, built: built))
        region.isPlain = false
        region.wrapFrame = region.endFrame + (loop == nil ? 0 : BandLimitedLevels.loopTailFrames(levels: built) - BandLimitedLevels.guardFrames)
        let form = UnsafeMutablePointer<PlaybackRegion>.allocate(capacity: 1)
        form.initialize(to: region)
        published.append(form)
        slots[index].pointee.store(Int(bitPattern: form), ordering: .releasing)
    }

    private func played(_ waveform: SamplerWaveform, channel: Int, loop: SamplerLoop?) -> PlayedChannel {
        PlayedChannel(frames: waveform.frames(channel: channel), frameCount: waveform.frameCount, loop: loop)
    }

    /// A guarded copy of frames −guard ..< `frames` + guard as they play; returns frame 0.
    private func copy(_ input: PlayedChannel, frames: Int) -> UnsafePointer<Float> {
        let guardFrames = BandLimitedLevels.guardFrames
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: frames + 2 * guardFrames)
        input.read(from: -guardFrames, count: frames + 2 * guardFrames, scale: 1, into: buffer)
        buffers.append(buffer)
        return UnsafePointer(buffer + guardFrames)
    }
    /// How many levels the region gets: up to the first whose step covers `largestStep`, for a
    /// short region at most to step 4 (see `BandLimitedLevels.shortRegionFrames`), for one too
    /// long to index at 6 stored frames per frame none.
    private func levelCount(for waveform: SamplerWaveform, loop: SamplerLoop?, largestStep: Double) -> Int {
        let covering = (BandLimitedLevels.specs.firstIndex { $0.maxStep >= largestStep } ?? BandLimitedLevels.count - 1) + 1
        let frames = loop?.endFrame ?? waveform.frameCount
        // Stored frames index a 32.32 phase: beyond 2³¹ of them, only the top level (r = 1) is safe.
        if frames > Int(Int32.max) / BandLimitedLevels.maxOversampling { return 0 }
        let short = frames <= BandLimitedLevels.shortRegionFrames
        return short ? min(covering, BandLimitedLevels.specs.firstIndex { $0.maxStep == BandLimitedLevels.shortRegionTopStep }! + 1) : covering
    }

    /// The first `built` levels of every channel of the region as it plays; the table's entries
    /// above them repeat the last one built.
    private func levels(of waveform: SamplerWaveform, loop: SamplerLoop?, built: Int) -> UnsafeMutablePointer<PlaybackLevel> {
        let guardFrames = BandLimitedLevels.guardFrames
        // Frames the voices can reach (before the guard).
        let frames = loop.map { $0.endFrame + BandLimitedLevels.loopTailFrames(levels: built) - guardFrames } ?? waveform.frameCount
        let perChannel = (0..<waveform.channelCount).map { channel in
            LevelBuilder.withShared { $0.build(frames: frames, levels: built, input: played(waveform, channel: channel, loop: loop)) }
        }
        let table = UnsafeMutablePointer<PlaybackLevel>.allocate(capacity: BandLimitedLevels.count)
        for index in 0..<BandLimitedLevels.count {
            let level = min(index, built - 1), spec = BandLimitedLevels.specs[level]
            let offset = guardFrames * spec.oversampling
            let left = UnsafePointer(perChannel[0][level] + offset)
            let right = perChannel.count == 2 ? UnsafePointer(perChannel[1][level] + offset) : left
            (table + index).initialize(to: PlaybackLevel(left: left, right: right, oversampling: spec.oversampling))
        }
        buffers += perChannel.flatMap { $0 }
        levelTables.append(table)
        return table
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
        for table in levelTables { table.deallocate() }
        for form in published { form.deallocate() }
        for slot in slots { slot.deinitialize(count: 1).deallocate() }
    }
}
