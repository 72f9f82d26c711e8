import Synchronization

/// The seam for deferred waveforms (`SamplerWaveform(source:)`): a region of one has no form of its
/// own, and is *prepared* once the loading side publishes its frames (`RegionFrames`) or levels.
/// A note-on on an unprepared region never blocks: that zone waits (briefly, `PendingNotes`) and
/// starts at the first block after its frames are published, or stays silent and is counted
/// (`silentNotes`). The render thread also stamps each selection of the program (a program change, or
/// a part back on its start program: `selectionStamp`), so the loading side can prepare a program
/// as soon as a part chooses it. Any thread but the render thread, unless said otherwise.
extension SamplerProgram {
    /// Makes `frames` (read for `request`, a `.plain` request of this program) the region's plain
    /// form from the next note-on on it. False, publishing nothing, when it has frames already, or
    /// its withdrawn ones still wait for their voices and `frames` are others (the same are
    /// published again as they are).
    @discardableResult
    public func publishFrames(_ frames: RegionFrames, for request: LevelRequest) -> Bool {
        storageLock.withLock { storage.publish(frames, for: request) }
    }

    /// Region `region` does without its frames from the next note-on on (it plays its levels, or,
    /// without them, is silent until prepared again); notes sounding keep them until they end
    /// (`reclaimWithdrawnLevels`). False if it had none.
    @discardableResult
    public func withdrawFrames(region: Int) -> Bool {
        storageLock.withLock { storage.withdraw(.plain, region) }
    }

    /// The deferred regions that have frames now, with them and the stamp of their last note-on.
    public var publishedFrames: [(region: Int, frames: RegionFrames, lastStrike: UInt64)] {
        storageLock.withLock { storage.publishedFrames.map { ($0.region, $0.owner, storage.lastStrike($0.region)) } }
    }

    /// Region `region`'s frames cannot be had (the file changed, a stream does not decode, or they
    /// need more than the whole sample budget): they are asked for no more, and it stays silent.
    public func abandonFrames(region: Int) {
        storageLock.withLock { storage.abandon(region) }
    }

    /// The next request of region `region` (`levelRequests`' entry for it), nil when it needs nothing.
    public func levelRequest(region: Int) -> LevelRequest? {
        storageLock.withLock { storage.regions.indices.contains(region) ? storage.request(region) : nil }
    }

    /// Deferred regions with neither frames nor levels: their notes are silent (an atomic).
    public var regionsUnprepared: Int { storage.unprepared.load(ordering: .relaxed) }

    /// The instrument's stamp at the last selection of this program by a part (0: never): the same
    /// clock as `lastStrike(region:)`. An atomic the render thread stores.
    public var selectionStamp: UInt64 { cell.pointee.selected.load(ordering: .relaxed) }

    /// Notes struck on this program with a zone that stayed silent (its region unprepared, and not
    /// prepared while it could wait), each counted once. An atomic the render thread counts.
    public var silentNotes: Int { cell.pointee.silentNotes.load(ordering: .relaxed) }
}
