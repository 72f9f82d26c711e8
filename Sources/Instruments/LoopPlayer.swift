import DSP

/// Audio held in memory at the engine rate, ready to loop: planar, 1 or 2 channels. Built on the
/// control thread (decoding and rate conversion happen before); immutable afterwards.
///
/// `@unchecked Sendable`: the samples are written only by `init`, before the object is shared.
public final class LoopSample: @unchecked Sendable {
    public let frameCount: Int
    public let channelCount: Int
    public let name: String
    private let storage: UnsafeMutablePointer<Float>

    /// `channels` must be non-empty and of equal length; extra channels beyond two are dropped.
    public init?(name: String, channels: [[Float]]) {
        guard let first = channels.first, !first.isEmpty, channels.allSatisfy({ $0.count == first.count }) else { return nil }
        self.name = name
        frameCount = first.count
        channelCount = min(channels.count, 2)
        storage = .allocate(capacity: frameCount * channelCount)
        for c in 0..<channelCount {
            channels[c].withUnsafeBufferPointer { (storage + c * frameCount).initialize(from: $0.baseAddress!, count: frameCount) }
        }
    }

    deinit { storage.deallocate() }

    func channel(_ c: Int) -> UnsafePointer<Float> {
        UnsafePointer(storage + min(c, channelCount - 1) * frameCount)
    }
}

/// Plays a `LoopSample` round and round, seamlessly: the read position wraps from the last frame
/// straight to the first, so a file whose end flows into its start loops without a click.
/// Start and stop are faded (1 ms in, 10 ms out) so toggling never clicks either; a stopped
/// player costs nothing. Mono files play on both channels.
///
/// Threads: `init` on the control thread; the rest on the render thread.
public final class LoopPlayer {
    /// Keeps the audio alive; the render path reads it through the plain pointers below (calling
    /// into the object would retain and release it).
    public let sample: LoopSample
    private let left: UnsafePointer<Float>
    private let right: UnsafePointer<Float>
    private let frameCount: Int
    private var position = 0
    private var fade: LinearSmoother
    private let fadeInFrames: Int
    private let fadeOutFrames: Int
    public private(set) var isPlaying = false

    public init(sample: LoopSample, sampleRate: Double) {
        self.sample = sample
        left = sample.channel(0)
        right = sample.channel(1)
        frameCount = sample.frameCount
        fade = LinearSmoother(value: 0, sampleRate: sampleRate)
        fadeInFrames = Int(0.001 * sampleRate)
        fadeOutFrames = Int(0.010 * sampleRate)
    }

    /// Starts from the top of the loop (no-op if already playing), or stops with a fade.
    @_noAllocation
    public func setPlaying(_ playing: Bool) {
        guard playing != isPlaying else { return }
        isPlaying = playing
        if playing {
            if fade.current == 0 { position = 0 }
            fade.setTarget(1, overFrames: fadeInFrames)
        } else {
            fade.setTarget(0, overFrames: fadeOutFrames)
        }
    }

    // Class fields are read into locals first: `&&` would capture `self` in its closure (a retain).
    public var isSilent: Bool {
        @_noAllocation get {
            let playing = isPlaying, fade = fade
            return !playing && fade.current == 0 && !fade.isRamping
        }
    }

    /// Adds `block.frames` frames of the loop into `block`.
    @_noAllocation
    public func render(into block: StereoBlock) {
        guard !isSilent else { return }
        let count = frameCount
        var p = position
        for i in 0..<block.frames {
            // Smoothstep-shaped fade: no corner where it starts or ends, so no click there either.
            let f = fade.next()
            let g = f * f * (3 - 2 * f)
            block.left[i] += g * left[p]
            block.right[i] += g * right[p]
            p += 1
            if p == count { p = 0 }
        }
        let playing = isPlaying, level = fade.current
        position = !playing && level == 0 ? 0 : p
    }

    @_noAllocation
    public func reset() {
        isPlaying = false
        fade.snap(to: 0)
        position = 0
    }
}
