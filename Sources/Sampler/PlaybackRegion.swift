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

    var loopLength: Int { endFrame - loopStartFrame }
    /// Looped voices jump back one loop length on reaching this frame.
    var wrapFrame: Int { endFrame + BandLimitedLevels.loopTailFrames - BandLimitedLevels.guardFrames }
}

/// Builds and owns the regions of a program: one per distinct (waveform, loop) pair, each with
/// its levels. Control thread only (the render side reads the `regions` copy the program makes).
///
/// Memory per source frame and channel: 2 + 2 + 1 + 1 + 1 = 7 stored floats (28 bytes), against
/// the 4 of the waveform alone, which is kept too (zones may make further regions of it).
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

    /// Index of the region for `waveform` with `loop` (nil: play once), creating it on first use.
    func region(for waveform: SamplerWaveform, loop: SamplerLoop?) -> Int {
        let key = RegionKey(waveform: ObjectIdentifier(waveform), loop: loop)
        if let index = indexByKey[key] { return index }
        waveforms.append(waveform)
        let endFrame = loop?.endFrame ?? waveform.frameCount
        let region = PlaybackRegion(
            levels: UnsafePointer(levels(of: waveform, loop: loop)), isStereo: waveform.channelCount == 2,
            endFrame: endFrame, loopStartFrame: loop?.startFrame ?? 0,
            isLooped: loop != nil, sampleRate: waveform.sampleRate)
        regions.append(region)
        indexByKey[key] = regions.count - 1
        return regions.count - 1
    }

    /// Every level of every channel of the region as it plays.
    private func levels(of waveform: SamplerWaveform, loop: SamplerLoop?) -> UnsafeMutablePointer<PlaybackLevel> {
        let guardFrames = BandLimitedLevels.guardFrames
        // Frames the voices can reach (before the guard).
        let frames = loop.map { $0.endFrame + BandLimitedLevels.loopTailFrames - guardFrames } ?? waveform.frameCount
        let half = BandLimitedLevels.maxHalfLength
        let perChannel = (0..<waveform.channelCount).map { channel -> [UnsafeMutablePointer<Float>] in
            // The region as it plays, from frame −half to frames + guard + half.
            let origin = -half - guardFrames
            let source = waveform.frames(channel: channel)
            let played = (origin..<(frames + guardFrames + half)).map { frame -> Float in
                if frame < 0 { return 0 }
                if let loop, frame >= loop.endFrame {
                    return source[loop.startFrame + (frame - loop.endFrame) % (loop.endFrame - loop.startFrame)]
                }
                return frame < waveform.frameCount ? source[frame] : 0
            }
            return LevelBuilder.withShared { $0.build(frames: frames, input: played, inputOrigin: origin) }
        }
        let table = UnsafeMutablePointer<PlaybackLevel>.allocate(capacity: BandLimitedLevels.count)
        for (index, spec) in BandLimitedLevels.specs.enumerated() {
            let offset = guardFrames * spec.oversampling
            let left = UnsafePointer(perChannel[0][index] + offset)
            let right = perChannel.count == 2 ? UnsafePointer(perChannel[1][index] + offset) : left
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
