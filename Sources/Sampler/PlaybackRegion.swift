/// Frames of silence stored before and after every waveform, so the widest kernel window (the
/// offline bank's band for a 4× step, `ResamplingBank.maxTapsAfter` frames either side) never
/// leaves the buffer and the inner loop never tests for the edges.
let regionGuardFrames = ResamplingBank.maxTapsAfter

/// A looped voice keeps reading this far past the loop end (in the seam buffer, which continues
/// with the loop start) before jumping back one loop length. The jump then lands this far after
/// the loop start, so the window's earlier taps read loop data, never the frames before the loop,
/// and before the seam the later taps never reach past the loop end: the seam is exact for every
/// kernel.
let loopWrapMarginFrames = ResamplingBank.maxTapsAfter

/// The seam buffer of a loop covers `seamFrames` frames centred on the loop end: real frames up
/// to the loop end, then the loop's start again. Voices read it for positions within
/// `loopWrapMarginFrames` of the loop end (with a window reaching as far again either side), and
/// the main waveform storage everywhere else.
let seamFrames = 4 * loopWrapMarginFrames

/// A waveform with one particular loop (or none), as the voices read it. Plain data pointing into
/// storage owned by the waveform and by `RegionStorage`; read on the render thread.
struct PlaybackRegion {
    /// Frame 0 of the waveform's channels (`right` == `left` for mono).
    var left: UnsafePointer<Float>
    var right: UnsafePointer<Float>
    var isStereo: Bool
    /// Playback stops on reaching this frame (unlooped), or this is the loop end (exclusive).
    var endFrame: Int
    var loopStartFrame: Int
    var isLooped: Bool
    var sampleRate: Double
    /// Seam buffers (looped only): index 0 holds frame `seamOriginFrame`.
    var seamLeft: UnsafePointer<Float>
    var seamRight: UnsafePointer<Float>
    var seamOriginFrame: Int

    var loopLength: Int { endFrame - loopStartFrame }
    /// Looped voices switch from the waveform to the seam buffer at this frame.
    var seamStartFrame: Int { endFrame - loopWrapMarginFrames }
    /// Segments in the seam buffer run up to this frame, then wrap back one loop length.
    var wrapFrame: Int { endFrame + loopWrapMarginFrames }
}

/// Builds and owns the regions of a program: one per distinct (waveform, loop) pair. Keeps the
/// waveforms alive as long as the program. Control thread only (the render side reads the
/// `regions` copy the program makes).
final class RegionStorage {
    private var seams: [UnsafeMutablePointer<Float>] = []
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
        let left = waveform.frames(channel: 0), right = waveform.frames(channel: 1)
        var region = PlaybackRegion(
            left: left, right: right, isStereo: waveform.channelCount == 2,
            endFrame: loop?.endFrame ?? waveform.frameCount, loopStartFrame: loop?.startFrame ?? 0,
            isLooped: loop != nil, sampleRate: waveform.sampleRate,
            seamLeft: left, seamRight: right, seamOriginFrame: 0)
        if let loop {
            region.seamOriginFrame = loop.endFrame - seamFrames / 2
            region.seamLeft = UnsafePointer(seam(of: waveform, channel: 0, loop: loop))
            region.seamRight = waveform.channelCount == 2 ? UnsafePointer(seam(of: waveform, channel: 1, loop: loop)) : region.seamLeft
        }
        regions.append(region)
        indexByKey[key] = regions.count - 1
        return regions.count - 1
    }

    /// The frames around the loop end as a voice should hear them: the sample up to the loop end,
    /// then the loop start again (repeated if the loop is shorter than the buffer).
    private func seam(of waveform: SamplerWaveform, channel: Int, loop: SamplerLoop) -> UnsafeMutablePointer<Float> {
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: seamFrames)
        let origin = loop.endFrame - seamFrames / 2
        let length = loop.endFrame - loop.startFrame
        for index in 0..<seamFrames {
            let frame = origin + index
            let source = frame < loop.endFrame ? frame : loop.startFrame + (frame - loop.endFrame) % length
            (buffer + index).initialize(to: waveform.sample(channel: channel, frame: source))
        }
        seams.append(buffer)
        return buffer
    }

    deinit {
        for buffer in seams { buffer.deallocate() }
    }
}
