import DSP
import MemberwiseInit

#if canImport(Glibc)
import Glibc
#endif

/// Decoded sample frames a zone plays: planar channels (1 or 2) of Float, or of 16-bit points
/// when the source has them (`StoredFrames`), at their own sample rate.
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
    public convenience init(channels: [[Float]], sampleRate: Double, naturalLoop: SamplerLoop? = nil, playedLoop: SamplerLoop? = nil) throws(SamplerProgramError) {
        try self.init(channelCounts: channels.map(\.count), sampleRate: sampleRate, naturalLoop: naturalLoop, playedLoop: playedLoop, bytesPerFrame: 4) { channel, base in
            channels[channel].withUnsafeBufferPointer { source in
                PlayedChannel.copy(source.baseAddress!, count: source.count, scale: 1, into: base.assumingMemoryBound(to: Float.self))
            }
        }
    }

    /// The same from 16-bit points (value / 32768), stored as they are: half the memory of Float,
    /// the same values to every reader.
    public convenience init(pcm16 channels: [[Int16]], sampleRate: Double, naturalLoop: SamplerLoop? = nil, playedLoop: SamplerLoop? = nil) throws(SamplerProgramError) {
        try self.init(channelCounts: channels.map(\.count), sampleRate: sampleRate, naturalLoop: naturalLoop, playedLoop: playedLoop, bytesPerFrame: 2) { channel, base in
            channels[channel].withUnsafeBytes { base.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        }
    }

    /// A mono waveform of `frameCount` 16-bit points, which `fill` writes in place: a SoundFont's
    /// points go from the mapped file straight into the waveform, with no array between.
    public convenience init(
        pcm16FrameCount frameCount: Int, sampleRate: Double, playedLoop: SamplerLoop? = nil, fill: (UnsafeMutablePointer<Int16>) -> Void
    ) throws(SamplerProgramError) {
        try self.init(channelCounts: [frameCount], sampleRate: sampleRate, naturalLoop: nil, playedLoop: playedLoop, bytesPerFrame: 2) { _, base in
            fill(base.assumingMemoryBound(to: Int16.self))
        }
    }

    /// A waveform that holds no frames: `source` gives them when a region of it is prepared on the
    /// loading side (`RegionFrames`), so that a SoundFont's samples are read on need, not at load.
    /// Its regions start unprepared: a note on one is silent (and counted) until the loading side
    /// publishes the region's frames or levels. `bytesPerFrame`: what `source` writes, 2 (16-bit
    /// points) or 4 (Float). Fails as the other initialisers do.
    public init(
        source: any SampleSource, channelCount: Int, frameCount: Int, sampleRate: Double, bytesPerFrame: Int, naturalLoop: SamplerLoop? = nil
    ) throws(SamplerProgramError) {
        try Self.check(channelCounts: [Int](repeating: frameCount, count: channelCount), sampleRate: sampleRate, naturalLoop: naturalLoop, playedLoop: nil)
        precondition(bytesPerFrame == 2 || bytesPerFrame == 4, "2 or 4 bytes a frame")
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        self.frameCount = frameCount
        self.naturalLoop = naturalLoop
        playedLoop = nil
        self.bytesPerFrame = bytesPerFrame
        self.source = source
        storage = []
    }

    /// Checks the shape, then stores each channel guarded: `fill(channel, frame 0)` writes all its frames.
    private init(
        channelCounts: [Int], sampleRate: Double, naturalLoop: SamplerLoop?, playedLoop: SamplerLoop?, bytesPerFrame: Int,
        fill: (Int, UnsafeMutableRawPointer) -> Void
    ) throws(SamplerProgramError) {
        try Self.check(channelCounts: channelCounts, sampleRate: sampleRate, naturalLoop: naturalLoop, playedLoop: playedLoop)
        let first = channelCounts[0]
        channelCount = channelCounts.count
        self.sampleRate = sampleRate
        self.frameCount = first
        self.naturalLoop = naturalLoop
        self.playedLoop = playedLoop
        self.bytesPerFrame = bytesPerFrame
        source = nil
        // After the frames: zeros, or the loop played on as far as its plain form reads.
        let stored = first + (playedLoop == nil ? 0 : RegionStorage.plainLoopTailFrames)
        storage = (0..<channelCounts.count).map { channel in
            let base = GuardedFrames.allocate(frames: stored, bytesPerFrame: bytesPerFrame)
            let zero = base + Self.guardFrames * bytesPerFrame
            fill(channel, zero)
            if let playedLoop {
                // The trailing guard too: the window at the wrap reaches into it.
                PlayedChannel(frames: GuardedFrames.stored(zero, bytesPerFrame: bytesPerFrame), frameCount: first, loop: playedLoop)
                    .copyStored(from: first, count: stored - first + Self.guardFrames, into: zero + first * bytesPerFrame)
            }
            return base
        }
    }

    /// Fails when there are no channels, more than two, channels of unequal length, no frames, a
    /// non-positive sample rate, or a loop outside the frames.
    private static func check(channelCounts: [Int], sampleRate: Double, naturalLoop: SamplerLoop?, playedLoop: SamplerLoop?) throws(SamplerProgramError) {
        guard let first = channelCounts.first, (1...2).contains(channelCounts.count), channelCounts.allSatisfy({ $0 == first }) else {
            throw .invalidWaveform(reason: "needs 1 or 2 channels of equal length, got \(channelCounts)")
        }
        guard first > 0 else { throw .invalidWaveform(reason: "has no frames") }
        guard sampleRate > 0, sampleRate.isFinite else { throw .invalidWaveform(reason: "sample rate \(sampleRate) Hz") }
        if let naturalLoop, !naturalLoop.fits(frameCount: first) {
            throw .invalidWaveform(reason: "loop \(naturalLoop) outside \(first) frames")
        }
        if let playedLoop, !(playedLoop.fits(frameCount: first) && playedLoop.endFrame == first) {
            throw .invalidWaveform(reason: "played loop \(playedLoop) does not end at the last of \(first) frames")
        }
    }

    /// The loop this waveform is stored played with (see `init`), if any.
    public let playedLoop: SamplerLoop?
    /// 4 (Float) or 2 (16-bit points).
    public let bytesPerFrame: Int
    /// Where a deferred waveform's frames are read from (nil: it holds them).
    public let source: (any SampleSource)?
    /// Holds no frames: its regions are prepared on the loading side from `source`.
    public var isDeferred: Bool { source != nil }

    /// One allocation per channel: `guardFrames` zeros, the frames, `guardFrames` zeros (or the
    /// played loop's tail), so a region's plain form reads them in place (`RegionStorage`); none
    /// for a deferred waveform.
    private let storage: [UnsafeMutableRawPointer]
    static let guardFrames = LevelLayout.guardFrames

    /// Frame 0 of `channel` (guarded by zeros either side). Any thread; not of a deferred waveform.
    func frames(channel: Int) -> StoredFrames {
        precondition(!isDeferred, "a deferred waveform holds no frames")
        return Self.stored(storage[min(channel, channelCount - 1)] + Self.guardFrames * bytesPerFrame, bytesPerFrame: bytesPerFrame)
    }

    private static func stored(_ zero: UnsafeMutableRawPointer, bytesPerFrame: Int) -> StoredFrames {
        GuardedFrames.stored(zero, bytesPerFrame: bytesPerFrame)
    }

    /// Channel `channel` as a region with `loop` plays it (valid while this waveform lives). Any
    /// thread; not of a deferred waveform (its regions' frames: `RegionFrames.played`).
    public func played(channel: Int, loop: SamplerLoop?) -> PlayedChannel {
        PlayedChannel(frames: frames(channel: channel), frameCount: frameCount, loop: loop)
    }

    /// Memory the frames take, bytes (guards and looped copies not counted; 0 for a deferred waveform).
    public var byteCount: Int { isDeferred ? 0 : frameCount * channelCount * bytesPerFrame }

    private struct CopyKey: Hashable {
        var channel: Int
        var loop: SamplerLoop
        var frames: Int
    }

    /// Guarded copies of the frames as looped regions play them (`loopedCopy`), by channel and loop.
    private let loopedCopies = ControlLocked<[CopyKey: UnsafeMutableRawPointer]>([:])

    /// Frames −guard ..< `frames` + guard of `channel` as a region with `loop` plays them (the loop
    /// again after its end), in the stored form, frame 0 returned: a looped region's plain form.
    /// Made once per waveform, so the regions of every program that plays it with this loop share
    /// it; valid while the waveform lives. Control side (~1 instruction per frame, the first time).
    func loopedCopy(channel: Int, loop: SamplerLoop, frames: Int) -> StoredFrames {
        if loop == playedLoop && frames == frameCount + RegionStorage.plainLoopTailFrames { return self.frames(channel: channel) }
        let key = CopyKey(channel: min(channel, channelCount - 1), loop: loop, frames: frames)
        let guardBytes = Self.guardFrames * bytesPerFrame
        return loopedCopies.withLock { copies in
            if let copy = copies[key] { return Self.stored(copy + guardBytes, bytesPerFrame: bytesPerFrame) }
            let count = frames + 2 * Self.guardFrames
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: count * bytesPerFrame, alignment: 16)
            played(channel: key.channel, loop: loop).copyStored(from: -Self.guardFrames, count: count, into: buffer)
            copies[key] = buffer
            return Self.stored(buffer + guardBytes, bytesPerFrame: bytesPerFrame)
        }
    }

    /// The frames of `channel` as an array (a copy, for inspection; a deferred waveform's read
    /// from its source, zeros if they cannot be). Control thread.
    public func channel(_ index: Int) -> [Float] {
        var read: UnsafeMutableRawPointer?
        if let source {
            let buffer = GuardedFrames.allocate(frames: frameCount, bytesPerFrame: bytesPerFrame, zeroed: true)
            read = buffer
            try? source.read(channel: min(index, channelCount - 1), frames: 0..<frameCount, into: buffer + Self.guardFrames * bytesPerFrame)
        }
        defer { read?.deallocate() }
        let frames = read.map { Self.stored($0 + Self.guardFrames * bytesPerFrame, bytesPerFrame: bytesPerFrame) } ?? self.frames(channel: index)
        return [Float](unsafeUninitializedCapacity: frameCount) { buffer, count in
            PlayedChannel(frames: frames, frameCount: frameCount, loop: nil).read(from: 0, count: frameCount, scale: 1, into: buffer.baseAddress!)
            count = frameCount
        }
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
