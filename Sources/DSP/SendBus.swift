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
    @_noAllocation
    public static func level(_ controller: UInt8) -> Float { Float(min(controller, 127)) / 127 }

    /// Heads for the part's CC91/CC93 values; `snap` jumps there (when the instrument is silent
    /// and not rendering, a ramp would otherwise wait for, and colour, the next note).
    @_noAllocation
    public mutating func follow(reverbController: UInt8, chorusController: UInt8, snap: Bool) {
        reverb.setTarget(Self.level(reverbController))
        chorus.setTarget(Self.level(chorusController))
        if snap {
            reverb.snap(to: reverb.target)
            chorus.snap(to: chorus.target)
        }
    }

    /// Moves the smoothers on by `frames` when the part sends nothing this time.
    @_noAllocation
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
    /// What the parts are handed: plain pointers into this bus (passing or calling the object
    /// would retain and release it on the render thread).
    public let target: SendTarget

    public init(maxFrames: Int) {
        reverb = StereoBuffer(capacity: maxFrames)
        chorus = StereoBuffer(capacity: maxFrames)
        let state = UnsafeMutablePointer<SendTarget.State>.allocate(capacity: 1)
        state.initialize(to: SendTarget.State(capacity: maxFrames))
        target = SendTarget(reverb: reverb.block(frames: maxFrames), chorus: chorus.block(frames: maxFrames), state: state)
    }

    deinit { target.state.deallocate() }

    /// Whether any part sent to the bus in this block (its buffer holds stale samples otherwise).
    public var reverbActive: Bool { @_noAllocation get { target.state.pointee.reverbActive } }
    public var chorusActive: Bool { @_noAllocation get { target.state.pointee.chorusActive } }

    /// Block start: nothing sent yet; the block is `frames` long.
    @_noAllocation
    public func begin(frames: Int) { target.begin(frames: frames) }

    /// `target.add`.
    @_noAllocation
    public func add(_ source: StereoBlock, at offset: Int, levels: inout ChannelSends) { target.add(source, at: offset, levels: &levels) }
}

/// A `SendBus` as the parts see it: its two buffers (whole capacity) and its block state, all
/// plain pointers into storage the bus owns. Render-thread safe; valid while the bus lives.
public struct SendTarget {
    public struct State {
        var capacity: Int
        var blockFrames = 0
        var reverbActive = false
        var chorusActive = false

        init(capacity: Int) { self.capacity = capacity }
    }

    public let reverb: StereoBlock
    public let chorus: StereoBlock
    let state: UnsafeMutablePointer<State>

    /// Whether any part sent to the reverb (chorus) in this block.
    public var reverbActive: Bool { @_noAllocation get { state.pointee.reverbActive } }
    public var chorusActive: Bool { @_noAllocation get { state.pointee.chorusActive } }

    /// Block start: nothing sent yet; the block is `frames` long.
    @_noAllocation
    public func begin(frames: Int) {
        state.pointee.blockFrames = min(frames, state.pointee.capacity)
        state.pointee.reverbActive = false
        state.pointee.chorusActive = false
    }

    /// Adds `source` (a part's signal for block frames `[offset, offset + source.frames)`) times
    /// each of `levels`' smoothed sends, advancing them by `source.frames`.
    @_noAllocation
    public func add(_ source: StereoBlock, at offset: Int, levels: inout ChannelSends) {
        let whole = state.pointee.blockFrames
        let frames = min(source.frames, whole - offset)
        guard frames > 0 else { return }
        sendAccumulate(source, frames: frames, into: reverb, at: offset, blockFrames: whole, level: &levels.reverb,
                       active: &state.pointee.reverbActive)
        sendAccumulate(source, frames: frames, into: chorus, at: offset, blockFrames: whole, level: &levels.chorus,
                       active: &state.pointee.chorusActive)
    }
}

extension SendTarget {
    /// Adds signals already scaled by their own send levels (voices with per-voice sends, such
    /// as SoundFont zones): `reverb` to the reverb bus and `chorus` to the chorus bus, at unity.
    @_noAllocation
    public func addScaled(reverb: StereoBlock, chorus: StereoBlock, at offset: Int) {
        let whole = state.pointee.blockFrames
        let frames = min(reverb.frames, whole - offset)
        guard frames > 0 else { return }
        addUnity(reverb, frames: frames, into: self.reverb, at: offset, blockFrames: whole, active: &state.pointee.reverbActive)
        addUnity(chorus, frames: frames, into: self.chorus, at: offset, blockFrames: whole, active: &state.pointee.chorusActive)
    }
}

@_noAllocation
private func addUnity(_ source: StereoBlock, frames: Int, into bus: StereoBlock, at offset: Int, blockFrames: Int, active: inout Bool) {
    if !active {
        bus.slice(from: 0, count: blockFrames).clear()
        active = true
    }
    let l = bus.left + offset, r = bus.right + offset
    for i in 0..<frames {
        l[i] += source.left[i]
        r[i] += source.right[i]
    }
}

/// One send of `SendBus.add` (a free function: naming the class type for a static member is a
/// metadata access the real-time checks reject).
@_noAllocation
private func sendAccumulate(_ source: StereoBlock, frames: Int, into bus: StereoBlock, at offset: Int, blockFrames: Int,
                            level: inout LinearSmoother, active: inout Bool) {
    if !level.isRamping && level.current == 0 { return }
    if !active {
        bus.slice(from: 0, count: blockFrames).clear()
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
