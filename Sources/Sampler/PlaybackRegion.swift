/// Frames of padding stored before and after every region, so a 4-point window (1 before, 2 after)
/// or a 32-tap sinc window (15 before, 16 after) never leaves the buffer and never needs a wrap
/// test inside the inner loop.
@usableFromInline let regionGuardFrames = 32

/// A looped voice keeps reading this far into the guard (which repeats the loop start) before
/// jumping back one loop length. The jump then lands 16 frames after the loop start, so the
/// window's earlier taps read loop data too, never the frames before the loop: the seam is exact
/// for both kernels (loops shorter than 16 frames are approximated by their periodic guard).
let loopWrapMarginFrames = 16

/// A waveform laid out for playback with one particular loop: frames `0..<endFrame` are the sample
/// (up to the loop end when looped); the guard after `endFrame` repeats the loop start (looped) or
/// is silence (one-shot), and the guard before frame 0 is silence. Plain data pointing into storage
/// owned by `SamplerProgram`; read on the render thread.
struct PlaybackRegion {
    var left: UnsafePointer<Float>
    /// Same as `left` for mono waveforms.
    var right: UnsafePointer<Float>
    var isStereo: Bool
    /// Playback stops (or wraps, when looped) on reaching this frame.
    var endFrame: Int
    var loopStartFrame: Int
    var isLooped: Bool
    var sampleRate: Double

    var loopLength: Int { endFrame - loopStartFrame }
    /// Segments run up to this frame: the end, or for loops the end plus the wrap margin.
    var segmentEndFrame: Int { isLooped ? endFrame + loopWrapMarginFrames : endFrame }
}

/// Owns the padded copies of every distinct (waveform, loop) pair of a program.
final class RegionStorage {
    private var allocations: [UnsafeMutablePointer<Float>] = []
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
        var channelPointers: [UnsafePointer<Float>] = []
        for channel in waveform.channels {
            channelPointers.append(UnsafePointer(padded(channel, loop: loop)))
        }
        let region = PlaybackRegion(
            left: channelPointers[0], right: channelPointers[channelPointers.count - 1],
            isStereo: channelPointers.count == 2,
            endFrame: loop?.endFrame ?? waveform.frameCount,
            loopStartFrame: loop?.startFrame ?? 0, isLooped: loop != nil, sampleRate: waveform.sampleRate)
        regions.append(region)
        indexByKey[key] = regions.count - 1
        return regions.count - 1
    }

    /// Copies `frames` (up to the loop end) between guards; returns a pointer to frame 0.
    private func padded(_ frames: [Float], loop: SamplerLoop?) -> UnsafeMutablePointer<Float> {
        let end = loop?.endFrame ?? frames.count
        let total = regionGuardFrames + end + regionGuardFrames
        let base = UnsafeMutablePointer<Float>.allocate(capacity: total)
        base.initialize(repeating: 0, count: total)
        allocations.append(base)
        let start = base + regionGuardFrames
        frames.withUnsafeBufferPointer { source in
            start.update(from: source.baseAddress!, count: end)
            if let loop {
                // The guard continues the loop from its start, so reads past the end are seamless.
                let length = loop.endFrame - loop.startFrame
                for k in 0..<regionGuardFrames {
                    start[end + k] = source[loop.startFrame + k % length]
                }
            }
        }
        return start
    }

    deinit {
        for allocation in allocations { allocation.deallocate() }
    }
}
