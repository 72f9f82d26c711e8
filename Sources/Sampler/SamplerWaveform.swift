import Synchronization
import MemberwiseInit

#if canImport(Glibc)
import Glibc
#endif

/// Decoded sample frames a zone plays: planar Float channels (1 or 2) at their own sample rate.
/// Built on the control thread, immutable afterwards, shared by every zone that uses the file.
///
/// The frames are copied once into raw storage, from which each (waveform, loop) pair a program
/// plays gets its band-limited levels (`RegionStorage`); the voices read those, not this.
///
/// @unchecked Sendable: its frames are written in `init` and only read after; the looped copies
/// are made under `loopedCopies`' lock and only read after.
public final class SamplerWaveform: @unchecked Sendable {
    public let channelCount: Int
    /// Rate the frames were recorded at, Hz. The voice resamples to the output rate.
    public let sampleRate: Double
    public let frameCount: Int
    /// Loop stored in the waveform itself (e.g. the built-in sine); zones may override it.
    public let naturalLoop: SamplerLoop?

    /// Control thread. Fails when there are no channels, more than two, channels of unequal
    /// length, no frames, or a non-positive sample rate.
    ///
    /// `playedLoop`: a waveform that is only ever played with this loop, which must end at its last
    /// frame (a SoundFont zone that loops until the voice ends): it is stored as such a region
    /// plays it, the frames followed by the loop again, so that region's plain form is the
    /// waveform itself instead of a copy of it (`loopedCopy`). Past its end `frames` reads the loop,
    /// not zeros: such a waveform must not be played unlooped.
    public init(channels: [[Float]], sampleRate: Double, naturalLoop: SamplerLoop? = nil, playedLoop: SamplerLoop? = nil) throws(SamplerProgramError) {
        guard let first = channels.first, (1...2).contains(channels.count),
              channels.allSatisfy({ $0.count == first.count }) else {
            throw .invalidWaveform(reason: "needs 1 or 2 channels of equal length, got \(channels.map(\.count))")
        }
        guard !first.isEmpty else { throw .invalidWaveform(reason: "has no frames") }
        guard sampleRate > 0, sampleRate.isFinite else { throw .invalidWaveform(reason: "sample rate \(sampleRate) Hz") }
        if let naturalLoop, !naturalLoop.fits(frameCount: first.count) {
            throw .invalidWaveform(reason: "loop \(naturalLoop) outside \(first.count) frames")
        }
        if let playedLoop, !(playedLoop.fits(frameCount: first.count) && playedLoop.endFrame == first.count) {
            throw .invalidWaveform(reason: "played loop \(playedLoop) does not end at the last of \(first.count) frames")
        }
        channelCount = channels.count
        self.sampleRate = sampleRate
        self.frameCount = first.count
        self.naturalLoop = naturalLoop
        self.playedLoop = playedLoop
        let guardFrames = Self.guardFrames
        // After the frames: zeros, or the loop played on as far as its plain form reads.
        let tail = guardFrames + (playedLoop == nil ? 0 : RegionStorage.plainLoopTailFrames)
        storage = channels.map { channel in
            let base = UnsafeMutablePointer<Float>.allocate(capacity: guardFrames + channel.count + tail)
            base.initialize(repeating: 0, count: guardFrames)
            channel.withUnsafeBufferPointer { source in PlayedChannel.copy(source.baseAddress!, count: source.count, scale: 1, into: base + guardFrames) }
            if let playedLoop {
                PlayedChannel(frames: base + guardFrames, frameCount: channel.count, loop: playedLoop)
                    .read(from: channel.count, count: tail, scale: 1, into: base + guardFrames + channel.count)
            } else {
                (base + guardFrames + channel.count).initialize(repeating: 0, count: tail)
            }
            return base
        }
    }

    /// The loop this waveform is stored played with (see `init`), if any.
    public let playedLoop: SamplerLoop?

    /// One allocation per channel: `guardFrames` zeros, the frames, `guardFrames` zeros (or the
    /// played loop's tail), so a region's plain form reads them in place (`RegionStorage`).
    private let storage: [UnsafeMutablePointer<Float>]
    static let guardFrames = LevelLayout.guardFrames

    /// Frame 0 of `channel` (guarded by zeros either side). Any thread.
    func frames(channel: Int) -> UnsafePointer<Float> {
        UnsafePointer(storage[min(channel, channelCount - 1)] + Self.guardFrames)
    }

    /// Channel `channel` as a region with `loop` plays it (valid while this waveform lives). Any thread.
    public func played(channel: Int, loop: SamplerLoop?) -> PlayedChannel {
        PlayedChannel(frames: frames(channel: channel), frameCount: frameCount, loop: loop)
    }

    private struct CopyKey: Hashable {
        var channel: Int
        var loop: SamplerLoop
        var frames: Int
    }

    /// Guarded copies of the frames as looped regions play them (`loopedCopy`), by channel and loop.
    private let loopedCopies = Mutex<[CopyKey: UnsafeMutablePointer<Float>]>([:])

    /// Frames −guard ..< `frames` + guard of `channel` as a region with `loop` plays them (the loop
    /// again after its end), frame 0 returned: a looped region's plain form. Made once per
    /// waveform, so the regions of every program that plays it with this loop share it; valid
    /// while the waveform lives. Control side (~1 instruction per frame, the first time).
    func loopedCopy(channel: Int, loop: SamplerLoop, frames: Int) -> UnsafePointer<Float> {
        if loop == playedLoop && frames == frameCount + RegionStorage.plainLoopTailFrames { return self.frames(channel: channel) }
        let key = CopyKey(channel: min(channel, channelCount - 1), loop: loop, frames: frames)
        return loopedCopies.withLock { copies in
            if let copy = copies[key] { return UnsafePointer(copy + Self.guardFrames) }
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: frames + 2 * Self.guardFrames)
            played(channel: key.channel, loop: loop).read(from: -Self.guardFrames, count: frames + 2 * Self.guardFrames, scale: 1, into: buffer)
            copies[key] = buffer
            return UnsafePointer(buffer + Self.guardFrames)
        }
    }

    /// The frames of `channel` as an array (a copy, for inspection). Control thread.
    public func channel(_ index: Int) -> [Float] {
        Array(UnsafeBufferPointer(start: frames(channel: index), count: frameCount))
    }

    deinit {
        for base in storage { base.deallocate() }
        loopedCopies.withLock { copies in for buffer in copies.values { buffer.deallocate() } }
    }

    /// One looped cycle of a sine, `frames` long, whose declared sample rate makes it sound at
    /// `frequencyHz` when played unshifted: the built-in "Sine 440" of AUSampler (`waveform −2`)
    /// is `sineCycle(frequencyHz: 440)` with root key 69. A long table keeps interpolation error
    /// far below audibility (2048 frames: < −120 dB for cubic interpolation).
    public static func sineCycle(frequencyHz: Double = 440, frames: Int = 2048) -> SamplerWaveform {
        let n = max(frames, 16)
        let table = (0..<n).map { Float(sin(2 * Double.pi * Double($0) / Double(n))) }
        // Cannot fail: one channel of n ≥ 16 frames, positive rate, loop = whole table.
        return try! SamplerWaveform(
            channels: [table], sampleRate: frequencyHz * Double(n),
            naturalLoop: SamplerLoop(startFrame: 0, endFrame: n))
    }
}

/// A sustain loop in sample frames: `startFrame` ..< `endFrame` (end exclusive).
@PublicInit
public struct SamplerLoop: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var startFrame: Int
    public var endFrame: Int

    public var description: String { "\(startFrame)..<\(endFrame)" }

    /// At least 2 frames long and inside the waveform.
    public func fits(frameCount: Int) -> Bool {
        startFrame >= 0 && endFrame <= frameCount && endFrame - startFrame >= 2
    }
}

/// Problems found while assembling a program (control thread): the description names the zone,
/// layer or waveform and the reason.
public enum SamplerProgramError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidWaveform(reason: String)
    case invalidZone(index: Int, reason: String)
    case invalidLayer(index: Int, reason: String)

    public var description: String {
        switch self {
        case .invalidWaveform(let reason): "waveform \(reason)"
        case .invalidZone(let index, let reason): "zone \(index): \(reason)"
        case .invalidLayer(let index, let reason): "layer \(index): \(reason)"
        }
    }
}
