import Synchronization

/// One band-limited level of a region (see `LevelLayout`): its channels' stored frame 0
/// (`right` == `left` for mono) and how many stored frames make one source frame (1 … 4).
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
/// later by need on the loading side (`SamplerLevels`) and published through `levelSlot`.
/// A voice takes whichever exists at its note-on (`current()`) and keeps it for its whole life, so
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

/// Makes and owns the regions of a program: one per distinct (waveform, loop) pair, each with its
/// plain form at once, and its band-limited form once the loading side publishes levels for it
/// (`publish`). Control side, under the program's lock; the render side reads only the `regions`
/// copy the program makes and the published slots.
///
/// Memory per source frame and channel: a looped region's plain copy, 1 float; the levels it is
/// given (see `LevelLayout`); besides the waveform itself, which is kept (zones may make further
/// regions of it).
final class RegionStorage {
    private var buffers: [UnsafeMutablePointer<Float>] = []
    private var plainTables: [UnsafeMutablePointer<PlaybackLevel>] = []
    private var published: [UnsafeMutablePointer<PlaybackRegion>] = []
    /// The levels each published form points into, kept alive with it.
    private var publishedLevels: [RegionLevels] = []
    private(set) var regions: [PlaybackRegion] = []
    private var indexByKey: [RegionKey: Int] = [:]
    /// Per region: what it needs from the level builder; nil once published (or if it needs nothing).
    private(set) var requests: [LevelRequest?] = []
    /// One slot per region (`PlaybackRegion.levelSlot`), allocated as regions are made.
    private var slots: [UnsafeMutablePointer<Atomic<Int>>] = []
    /// Regions whose levels are not published yet (any thread may read it).
    let awaiting = Atomic<Int>(0)

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
        if let index = indexByKey[key] { return index }
        let endFrame = loop?.endFrame ?? waveform.frameCount
        let wrapFrame = endFrame + (loop == nil ? 0 : Self.plainLoopTailFrames)
        let table = UnsafeMutablePointer<PlaybackLevel>.allocate(capacity: 1)
        // Unlooped: the waveform's own guarded frames; looped: a copy with the loop played on past its end.
        let channels = (0..<waveform.channelCount).map { channel in
            loop == nil ? waveform.frames(channel: channel) : copy(waveform.played(channel: channel, loop: loop), frames: wrapFrame)
        }
        table.initialize(to: PlaybackLevel(left: channels[0], right: channels.last!, oversampling: 1))
        plainTables.append(table)
        let slot = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 1)
        slot.initialize(to: Atomic(0))
        slots.append(slot)
        let index = regions.count
        regions.append(PlaybackRegion(
            levels: UnsafePointer(table), isStereo: waveform.channelCount == 2, isPlain: true, levelSlot: UnsafePointer(slot),
            endFrame: endFrame, loopStartFrame: loop?.startFrame ?? 0, isLooped: loop != nil, sampleRate: waveform.sampleRate,
            wrapFrame: wrapFrame))
        let levelCount = LevelLayout.levelCount(frames: endFrame, largestStep: largestSteps[key] ?? .infinity)
        // 0 levels (a region too long for them): it stays plain, nothing to build.
        requests.append(levelCount == 0 ? nil : LevelRequest(region: index, waveform: waveform, loop: loop, levelCount: levelCount))
        if levelCount > 0 { awaiting.add(1, ordering: .relaxed) }
        indexByKey[key] = index
        return index
    }

    /// Publishes `levels` as `request`'s region's band-limited form (a release store the render
    /// thread acquires at note-on). Returns false, publishing nothing, if it has its levels already.
    func publish(_ levels: RegionLevels, for request: LevelRequest) -> Bool {
        let index = request.region
        precondition(requests.indices.contains(index), "a request of another program")
        guard let pending = requests[index] else { return false }
        precondition(pending.waveform === request.waveform && pending.loop == request.loop, "a request of another program")
        precondition(levels.channelCount == request.waveform.channelCount, "levels for another region")
        precondition(levels.frames >= regions[index].endFrame, "levels shorter than the region")
        requests[index] = nil
        var region = regions[index]
        region.levels = UnsafePointer(levels.table)
        region.isPlain = false
        if region.isLooped { region.wrapFrame = levels.frames }
        let form = UnsafeMutablePointer<PlaybackRegion>.allocate(capacity: 1)
        form.initialize(to: region)
        published.append(form)
        publishedLevels.append(levels)
        slots[index].pointee.store(Int(bitPattern: form), ordering: .releasing)
        awaiting.subtract(1, ordering: .relaxed)
        return true
    }

    /// A guarded copy of frames −guard ..< `frames` + guard as they play; returns frame 0.
    private func copy(_ input: PlayedChannel, frames: Int) -> UnsafePointer<Float> {
        let guardFrames = LevelLayout.guardFrames
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: frames + 2 * guardFrames)
        input.read(from: -guardFrames, count: frames + 2 * guardFrames, scale: 1, into: buffer)
        buffers.append(buffer)
        return UnsafePointer(buffer + guardFrames)
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
        for table in plainTables { table.deallocate() }
        for form in published { form.deallocate() }
        for slot in slots { slot.deinitialize(count: 1).deallocate() }
    }
}
