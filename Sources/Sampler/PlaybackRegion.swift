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
/// with the 4-point kernel), ready as soon as the program exists (a deferred waveform's: once the
/// loading side read its frames and published them through `cell`), and the band-limited one,
/// built later by need on the loading side (`SamplerLevels`) and published through `cell`.
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
    /// Of a deferred waveform (`SamplerWaveform(source:)`): no form of its own; plays only the
    /// frames or levels the loading side published (`cell`).
    var isDeferred: Bool
    /// What it shares with the loading side: the published forms, the strike stamp.
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
    /// been published, else a deferred region's published frames (either counted as held: the
    /// voice lets go with `hold.release()` when it stops), else its own plain form (`hold` nil).
    /// Nil for a deferred region with neither (unprepared): the zone stays silent.
    @inline(__always)
    func strike(stamp: UInt64) -> (region: PlaybackRegion, hold: FormHold?)? {
        cell.pointee.lastStrike.store(stamp, ordering: .relaxed)
        if let published = cell.pointee.levels.acquire() { return (published, FormHold(cell: cell, kind: .levels)) }
        guard isDeferred else { return (self, nil) }
        guard let frames = cell.pointee.plain.acquire() else { return nil }
        return (frames, FormHold(cell: cell, kind: .plain))
    }
}
