/// The plain form of a region of a deferred waveform (`SamplerWaveform(source:)`): its frames as
/// the region plays them, read from the waveform's source on the loading side and handed to the
/// program with `SamplerProgram.publishFrames(_:for:)`. Laid out as a waveform's own plain form
/// (`RegionStorage`): `guardFrames` zeros, the frames to the region's end, a looped region's loop
/// played on `plainLoopTailFrames` past it, `guardFrames` zeros; 16-bit points or Float as the
/// waveform stores them. Owns its buffers and frees them when the last program holding it goes
/// (several programs may publish the same object, as with `RegionLevels`).
///
/// @unchecked Sendable: immutable after `init` (its buffers are written there and only read
/// afterwards); the voices read them through the published form's plain pointers.
public final class RegionFrames: @unchecked Sendable {
    /// Frames the region plays before it stops (unlooped) or wraps (its loop end).
    public let endFrame: Int
    public let loop: SamplerLoop?
    public let channelCount: Int
    /// 2 (16-bit points) or 4 (Float).
    public let bytesPerFrame: Int
    /// Memory held, bytes.
    public let byteCount: Int
    /// One level: the frames, read with the 4-point cubic.
    let table: UnsafeMutablePointer<PlaybackLevel>
    private let buffers: [UnsafeMutableRawPointer]
    private let released: (@Sendable (Int) -> Void)?

    /// Frames stored from frame 0, guards not counted: to the region's end, and past a loop's end
    /// as far as the plain form reads before the voice wraps (`PlaybackRegion.wrapFrame`).
    static func storedFrames(endFrame: Int, looped: Bool) -> Int {
        endFrame + (looped ? RegionStorage.plainLoopTailFrames : 0)
    }

    /// The memory `request`'s region takes as frames, guards included, bytes.
    public static func byteCount(for request: LevelRequest) -> Int {
        let stored = storedFrames(endFrame: request.endFrame, looped: request.loop != nil) + 2 * LevelLayout.guardFrames
        return stored * request.waveform.channelCount * request.waveform.bytesPerFrame
    }

    /// Loading side: reads `request`'s region (of a deferred waveform) from the waveform's source.
    /// `released` runs when the frames are freed (the last program holding them let go), with
    /// `byteCount`: a budget's accounting. Throws what the source throws.
    public init(reading request: LevelRequest, released: (@Sendable (Int) -> Void)? = nil) throws(SampleReadError) {
        let waveform = request.waveform
        guard let source = waveform.source else { preconditionFailure("frames are read only for a deferred waveform") }
        let bytesPerFrame = waveform.bytesPerFrame, guardFrames = LevelLayout.guardFrames
        let stored = Self.storedFrames(endFrame: request.endFrame, looped: request.loop != nil)
        var buffers: [UnsafeMutableRawPointer] = []
        for channel in 0..<waveform.channelCount {
            let buffer = GuardedFrames.allocate(frames: stored, bytesPerFrame: bytesPerFrame)
            buffers.append(buffer)
            let zero = buffer + guardFrames * bytesPerFrame
            do {
                try source.read(channel: channel, frames: 0..<request.endFrame, into: zero)
            } catch {
                for buffer in buffers { buffer.deallocate() }
                throw error
            }
            if let loop = request.loop {
                // The loop played on past its end, through the trailing guard (as `SamplerWaveform.loopedCopy`).
                PlayedChannel(frames: GuardedFrames.stored(zero, bytesPerFrame: bytesPerFrame), frameCount: request.endFrame, loop: loop)
                    .copyStored(from: request.endFrame, count: stored - request.endFrame + guardFrames, into: zero + request.endFrame * bytesPerFrame)
            }
        }
        endFrame = request.endFrame
        loop = request.loop
        channelCount = waveform.channelCount
        self.bytesPerFrame = bytesPerFrame
        byteCount = (stored + 2 * guardFrames) * channelCount * bytesPerFrame
        self.buffers = buffers
        self.released = released
        let left = GuardedFrames.stored(buffers[0] + guardFrames * bytesPerFrame, bytesPerFrame: bytesPerFrame)
        let right = GuardedFrames.stored(buffers[buffers.count - 1] + guardFrames * bytesPerFrame, bytesPerFrame: bytesPerFrame)
        table = .allocate(capacity: 1)
        table.initialize(to: PlaybackLevel(plain: left, right))
    }

    /// Channel `channel` (0 or 1) of the region as it plays: what its levels are built from.
    public func played(channel: Int) -> PlayedChannel {
        let zero = buffers[min(channel, channelCount - 1)] + LevelLayout.guardFrames * bytesPerFrame
        return PlayedChannel(frames: GuardedFrames.stored(zero, bytesPerFrame: bytesPerFrame), frameCount: endFrame, loop: loop)
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
        table.deallocate()
        released?(byteCount)
    }
}
