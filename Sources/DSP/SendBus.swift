/// A send effect's shape: wet stereo out of stereo in, one block at a time (the reverb and the
/// chorus). Used as a generic constraint, so calls stay direct on the render thread.
public protocol SendEffect: AnyObject {
    func process(input: StereoBlock, output: StereoBlock)
}

extension FeedbackDelayReverb: SendEffect {}
extension StereoChorus: SendEffect {}

/// One part's reverb and chorus send levels (CC91 and CC93 as value/127, linear), smoothed over
/// 10 ms like its volume, so a send change never steps. GM defaults: reverb 40, chorus 0.
/// Render-thread safe value type; an instrument keeps one per part next to its `ChannelGains`.
public struct ChannelSends {
    public static let defaultReverbController: UInt8 = 40
    public static let defaultChorusController: UInt8 = 0

    public var reverb: LinearSmoother
    public var chorus: LinearSmoother

    public init(sampleRate: Double) {
        reverb = LinearSmoother(value: Self.level(Self.defaultReverbController), sampleRate: sampleRate, rampSeconds: ChannelGains.rampSeconds)
        chorus = LinearSmoother(value: Self.level(Self.defaultChorusController), sampleRate: sampleRate, rampSeconds: ChannelGains.rampSeconds)
    }

    /// Send gain for a controller value: value/127 (GM leaves the law to the device; linear
    /// amplitude makes CC91 = 64 a −6 dB send).
    public static func level(_ controller: UInt8) -> Float { Float(min(controller, 127)) / 127 }

    /// Heads for the part's CC91/CC93 values; `snap` jumps there (when the instrument is silent
    /// and not rendering, a ramp would otherwise wait for, and colour, the next note).
    public mutating func follow(reverbController: UInt8, chorusController: UInt8, snap: Bool) {
        reverb.setTarget(Self.level(reverbController))
        chorus.setTarget(Self.level(chorusController))
        if snap {
            reverb.snap(to: reverb.target)
            chorus.snap(to: chorus.target)
        }
    }

    /// Moves the smoothers on by `frames` when the part sends nothing this time.
    public mutating func advance(frames: Int) {
        reverb.advance(by: frames)
        chorus.advance(by: frames)
    }
}

/// The reverb and chorus send buses of one block: every part adds its post-volume/pan signal ×
/// its send levels here, and the send-effects stage reads them. A bus is cleared the first time
/// a part sends to it in a block, so a block where nobody sends costs nothing and the stage can
/// tell that its effects have no input. Allocate on the control thread; the rest is render-thread safe.
public final class SendBus {
    public let reverb: StereoBuffer
    public let chorus: StereoBuffer
    /// Whether any part sent to the bus in this block (its buffer holds stale samples otherwise).
    public private(set) var reverbActive = false
    public private(set) var chorusActive = false
    private var blockFrames = 0

    public init(maxFrames: Int) {
        reverb = StereoBuffer(capacity: maxFrames)
        chorus = StereoBuffer(capacity: maxFrames)
    }

    /// Block start: nothing sent yet; the block is `frames` long.
    public func begin(frames: Int) {
        blockFrames = min(frames, reverb.capacity)
        reverbActive = false
        chorusActive = false
    }

    /// Adds `source` (a part's signal for block frames `[offset, offset + source.frames)`) times
    /// each of `levels`' smoothed sends, advancing them by `source.frames`.
    public func add(_ source: StereoBlock, at offset: Int, levels: inout ChannelSends) {
        let frames = min(source.frames, blockFrames - offset)
        guard frames > 0 else { return }
        Self.accumulate(source, frames: frames, into: reverb, at: offset, blockFrames: blockFrames, level: &levels.reverb, active: &reverbActive)
        Self.accumulate(source, frames: frames, into: chorus, at: offset, blockFrames: blockFrames, level: &levels.chorus, active: &chorusActive)
    }

    private static func accumulate(_ source: StereoBlock, frames: Int, into bus: StereoBuffer, at offset: Int, blockFrames: Int,
                                   level: inout LinearSmoother, active: inout Bool) {
        if !level.isRamping && level.current == 0 { return }
        if !active {
            bus.block(frames: blockFrames).clear()
            active = true
        }
        let l = bus.left + offset, r = bus.right + offset
        if !level.isRamping {
            let g = level.current
            for i in 0..<frames {
                l[i] += g * source.left[i]
                r[i] += g * source.right[i]
            }
            return
        }
        for i in 0..<frames {
            let g = level.next()
            l[i] += g * source.left[i]
            r[i] += g * source.right[i]
        }
    }
}
