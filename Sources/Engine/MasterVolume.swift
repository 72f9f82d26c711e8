import DSP

/// The universal SysEx master volume (`F0 7F id 04 01 ll mm F7`): one gain on the whole output,
/// changing on the frame its message was applied at (the engine schedules it while splitting
/// the block at events, the master stage applies it per frame), ramped over 10 ms like every
/// level. A reset brings it back to full. Render thread; owns its storage (`~Copyable`).
struct MasterVolume: ~Copyable {
    private var smoother: LinearSmoother
    /// This block's changes not yet applied: frame, gain, in frame order.
    private let frames: UnsafeMutablePointer<Int>
    private let gains: UnsafeMutablePointer<Float>
    private var count = 0
    /// Changes held per block; a further one in the same block replaces the last (the later value wins).
    static let capacity = 8

    init(sampleRate: Double) {
        smoother = LinearSmoother(value: 1, sampleRate: sampleRate, rampSeconds: ChannelGains.rampSeconds)
        frames = .allocate(capacity: Self.capacity)
        frames.initialize(repeating: 0, count: Self.capacity)
        gains = .allocate(capacity: Self.capacity)
        gains.initialize(repeating: 1, count: Self.capacity)
    }

    deinit {
        frames.deallocate()
        gains.deallocate()
    }

    /// Gain of a 14-bit master volume: 40·log10(v/16383) dB, the law GM gives CC7, floored at −96 dB.
    @_noAllocation
    static func gain(_ value: UInt16) -> Float {
        guard value > 0 else { return 0 }
        let decibels = max(ConcaveCurve.floorDecibels, 40 * RealTimeMath.log10(Double(min(value, 16383)) / 16383))
        return Float(RealTimeMath.pow(10, decibels / 20))
    }

    /// Takes effect at `frame` of the block being rendered.
    @_noAllocation
    mutating func schedule(_ value: UInt16, atFrame frame: Int) {
        if count == Self.capacity { count -= 1 }
        frames[count] = frame
        gains[count] = Self.gain(value)
        count += 1
    }

    /// Whether the gain is 1 and stays 1 through this block (the stage can skip multiplying).
    var isUnity: Bool { @_noAllocation get { count == 0 && !smoother.isRamping && smoother.current == 1 } }

    /// The gain for each frame of `block`, multiplied in, the scheduled changes on their frames.
    @_noAllocation
    mutating func apply(to block: StereoBlock) {
        var next = 0
        for i in 0..<block.frames {
            while next < count && frames[next] <= i {
                smoother.setTarget(gains[next])
                next += 1
            }
            let g = smoother.next()
            block.left[i] *= g
            block.right[i] *= g
        }
        finish(frames: 0, from: next)
    }

    /// A block the stage did not process (silence): the changes take hold at once.
    @_noAllocation
    mutating func skip(frames blockFrames: Int) { finish(frames: blockFrames, from: 0) }

    @_noAllocation
    private mutating func finish(frames blockFrames: Int, from next: Int) {
        if next < count { smoother.snap(to: gains[count - 1]) } else if blockFrames > 0 { smoother.advance(by: blockFrames) }
        count = 0
    }
}
