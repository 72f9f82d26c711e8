import Synchronization

/// Makes and owns the regions of a program: one per distinct (waveform, loop) pair, each with its
/// plain form at once, and its band-limited form while the loading side has published levels for
/// it (`publish`, `withdraw`, `reclaim`). A region of a deferred waveform (`SamplerWaveform(source:)`)
/// has no plain form of its own: it is *unprepared* (its notes are silent) until the loading side
/// publishes its frames (`RegionFrames`) or levels. Control side, under the program's lock; the
/// render side reads only the `regions` copy the program makes and the cells.
///
/// Memory per source frame and channel: a looped region's plain copy, 1 float (one per waveform
/// and loop, shared with other programs: `SamplerWaveform.loopedCopy`); the levels and frames it is
/// given (see `LevelLayout`); besides the waveform itself, which is kept (zones may make further regions of it).
final class RegionStorage {
    private var plainTables: [UnsafeMutablePointer<PlaybackLevel>] = []
    private(set) var regions: [PlaybackRegion] = []
    private var indexByKey: [RegionKey: Int] = [:]
    /// Per region: what it needs from the level builder (`levelCount` 0: no levels).
    private var needs: [LevelRequest] = []
    private var levels = FormBook<RegionLevels>(kind: .levels)
    private var frames = FormBook<RegionFrames>(kind: .plain)
    /// Deferred regions whose frames cannot be had (unreadable, or beyond the whole budget): not asked for again.
    private var abandoned = Set<Int>()
    /// One per region (`PlaybackRegion.cell`), allocated as regions are made.
    private var cells: [UnsafeMutablePointer<RegionCell>] = []
    /// Regions whose levels are not published (any thread may read it).
    let awaiting = Atomic<Int>(0)
    /// Deferred regions with neither frames nor levels published (any thread may read it).
    let unprepared = Atomic<Int>(0)

    /// Frames of the loop played on past its end in the plain form before the voice wraps: the
    /// 4-point window reaches 2 frames ahead.
    static let plainLoopTailFrames = 4

    /// What a deferred region's inline form points at: never read (its note-ons find no form).
    nonisolated(unsafe) private static let noFrames: UnsafePointer<PlaybackLevel> = {
        let table = UnsafeMutablePointer<PlaybackLevel>.allocate(capacity: 1)
        table.initialize(to: PlaybackLevel(left: UnsafeRawPointer(bitPattern: 16)!, right: UnsafeRawPointer(bitPattern: 16)!, oversampling: 1))
        return UnsafePointer(table)
    }()

    private struct RegionKey: Hashable {
        var waveform: ObjectIdentifier
        var loop: SamplerLoop?
    }

    /// Largest step asked of each region so far (see `reach`), and whether every zone reaching it
    /// plays at its root pitch.
    private var largestSteps: [RegionKey: (reach: Double, withFloor: Double, atRootPitch: Bool)] = [:]

    /// Records that a zone may play `waveform` with `loop` at steps up to `reach` (`withFloor`:
    /// with the margin for bends the preset does not foresee), or only at its root pitch
    /// (`SamplerZone.playsAtRootPitch`). Call before `region`.
    func reach(_ waveform: SamplerWaveform, loop: SamplerLoop?, step reach: Double, withFloor: Double, atRootPitch: Bool) {
        let key = RegionKey(waveform: ObjectIdentifier(waveform), loop: loop)
        let known = largestSteps[key] ?? (0, 0, true)
        func finite(_ step: Double) -> Double { step.isFinite ? step : .infinity }
        largestSteps[key] = (max(known.reach, finite(reach)), max(known.withFloor, finite(withFloor)), known.atRootPitch && atRootPitch)
    }

    /// Index of the region for `waveform` with `loop` (nil: play once), creating its plain form on
    /// first use (looped: a guarded copy of the frames as they play, ~1 instruction per frame; a
    /// deferred waveform's: none, the region starts unprepared).
    func region(for waveform: SamplerWaveform, loop: SamplerLoop?) -> Int {
        let key = RegionKey(waveform: ObjectIdentifier(waveform), loop: loop)
        if let index = indexByKey[key] { return index }
        let endFrame = loop?.endFrame ?? waveform.frameCount
        let wrapFrame = RegionFrames.storedFrames(endFrame: endFrame, looped: loop != nil)
        var table = Self.noFrames
        if !waveform.isDeferred {
            // Unlooped: the waveform's own guarded frames; looped: a copy with the loop played on past its end.
            let channels = (0..<waveform.channelCount).map { channel in
                loop.map { waveform.loopedCopy(channel: channel, loop: $0, frames: wrapFrame) } ?? waveform.frames(channel: channel)
            }
            let plain = UnsafeMutablePointer<PlaybackLevel>.allocate(capacity: 1)
            plain.initialize(to: PlaybackLevel(plain: channels[0], channels[channels.count - 1]))
            plainTables.append(plain)
            table = UnsafePointer(plain)
        }
        let cell = UnsafeMutablePointer<RegionCell>.allocate(capacity: 1)
        cell.initialize(to: RegionCell())
        cells.append(cell)
        let index = regions.count
        regions.append(PlaybackRegion(
            levels: table, isStereo: waveform.channelCount == 2, isPlain: true, isDeferred: waveform.isDeferred, cell: UnsafePointer(cell),
            endFrame: endFrame, loopStartFrame: loop?.startFrame ?? 0, isLooped: loop != nil, sampleRate: waveform.sampleRate,
            wrapFrame: wrapFrame))
        let steps = largestSteps[key] ?? (.infinity, .infinity, false)
        // 0 levels (a region too long for them): it stays plain, no levels to build.
        let levelCount = LevelLayout.levelCount(frames: endFrame, largestStep: steps.withFloor)
        needs.append(LevelRequest(
            region: index, waveform: waveform, loop: loop, levelCount: levelCount,
            reachLevelCount: min(levelCount, LevelLayout.levelCount(frames: endFrame, largestStep: steps.reach)),
            playsAtRootPitch: steps.atRootPitch))
        levels.addRegion()
        frames.addRegion()
        if levelCount > 0 { awaiting.add(1, ordering: .relaxed) }
        if waveform.isDeferred { unprepared.add(1, ordering: .relaxed) }
        indexByKey[key] = index
        return index
    }

    /// What region `index` needs next: a deferred region without a form, its frames; then its
    /// levels (built from those frames). Nil when it has its levels, needs none, cannot take new
    /// ones yet (its withdrawn levels still wait for their voices), or its frames were abandoned.
    func request(_ index: Int) -> LevelRequest? {
        guard levels.owner(index) == nil else { return nil }
        let need = needs[index]
        var plain: RegionFrames?
        if regions[index].isDeferred {
            guard let published = frames.owner(index) else { return abandoned.contains(index) ? nil : need.asking(.plain) }
            plain = published
        }
        guard need.levelCount > 0, !levels.isWaiting(index) else { return nil }
        return need.asking(.levels, from: plain)
    }

    /// The levels region `index` plays now, if any.
    func levels(_ index: Int) -> RegionLevels? { levels.owner(index) }

    /// The frames deferred region `index` plays now, if any.
    func frames(_ index: Int) -> RegionFrames? { frames.owner(index) }

    /// Every region with published levels (or frames), for choosing what to withdraw.
    var publishedLevels: [(region: Int, owner: RegionLevels)] { levels.all }
    var publishedFrames: [(region: Int, owner: RegionFrames)] { frames.all }

    /// The stamp of the last note-on on region `index` (0: never struck).
    func lastStrike(_ index: Int) -> UInt64 { cells[index].pointee.lastStrike.load(ordering: .relaxed) }

    /// Publishes `levels` as `request`'s region's band-limited form (a release store the render
    /// thread acquires at note-on). Returns false, publishing nothing, if it has its levels
    /// already, or its withdrawn ones are not freed yet (`reclaim`) and `levels` are others.
    func publish(_ levels: RegionLevels, for request: LevelRequest) -> Bool {
        let index = checked(request)
        precondition(levels.channelCount == request.waveform.channelCount, "levels for another region")
        precondition(levels.frames >= regions[index].endFrame, "levels shorter than the region")
        let published = preparing(index) {
            self.levels.publish(levels, region: index, cell: cells[index]) {
                var region = regions[index]
                region.levels = UnsafePointer(levels.table)
                region.isPlain = false
                if region.isLooped { region.wrapFrame = levels.frames }
                return region
            }
        }
        if published { awaiting.subtract(1, ordering: .relaxed) }
        return published
    }

    /// Publishes `frames` as deferred `request`'s region's plain form, on the same terms.
    func publish(_ frames: RegionFrames, for request: LevelRequest) -> Bool {
        let index = checked(request)
        precondition(regions[index].isDeferred, "frames for a region that has its own")
        precondition(frames.channelCount == request.waveform.channelCount && frames.endFrame == regions[index].endFrame, "frames for another region")
        return preparing(index) {
            self.frames.publish(frames, region: index, cell: cells[index]) {
                var region = regions[index]
                region.levels = UnsafePointer(frames.table)
                return region
            }
        }
    }

    /// Withdraws region `index`'s levels (`.levels`: later note-ons play its plain form) or
    /// deferred frames (`.plain`: they play its levels, or nothing); the form is freed by `reclaim`
    /// once no voice holds it. Returns false if it had none.
    func withdraw(_ kind: FormKind, _ index: Int) -> Bool {
        preparing(index) {
            switch kind {
            case .levels:
                guard levels.withdraw(index, cell: cells[index]) else { return false }
                awaiting.add(1, ordering: .relaxed)
                return true
            case .plain:
                return frames.withdraw(index, cell: cells[index])
            }
        }
    }

    /// Deferred region `index`'s frames cannot be had: they are not asked for again.
    func abandon(_ index: Int) { abandoned.insert(index) }

    /// Frees the withdrawn forms no voice holds any more; returns how many still wait for their voices.
    func reclaim() -> Int { levels.reclaim(cells) + frames.reclaim(cells) }

    /// `request`'s region, checked to be of this program.
    private func checked(_ request: LevelRequest) -> Int {
        precondition(needs.indices.contains(request.region), "a request of another program")
        let need = needs[request.region]
        precondition(need.waveform === request.waveform && need.loop == request.loop, "a request of another program")
        return request.region
    }

    /// Runs `change` on region `index` and keeps `unprepared` counting the deferred regions with no form.
    private func preparing(_ index: Int, _ change: () -> Bool) -> Bool {
        let wasPrepared = isPrepared(index)
        let changed = change()
        let prepared = isPrepared(index)
        if prepared != wasPrepared { unprepared.add(prepared ? -1 : 1, ordering: .relaxed) }
        return changed
    }

    private func isPrepared(_ index: Int) -> Bool {
        !regions[index].isDeferred || levels.owner(index) != nil || frames.owner(index) != nil
    }

    /// Runs when the program goes, after its bank retired: no voice reads any form.
    deinit {
        for table in plainTables { table.deallocate() }
        levels.freeAll()
        frames.freeAll()
        for cell in cells { cell.deinitialize(count: 1).deallocate() }
    }
}
