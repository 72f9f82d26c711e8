import MIDI

/// Which MIDI channels play. Channels are 0-based here (MIDI channel 1 = 0). By default every
/// channel is a part of the sound module; an instrument may restrict them, and notes on the
/// others are counted (`PartMeters`) and ignored.
public struct ChannelRouting: Sendable, Equatable {
    /// Bit `c` set: channel `c` plays.
    public var playingMask: UInt16

    /// Every channel plays.
    public init() { playingMask = 0xFFFF }

    /// Only `channels` (0-based) play.
    public init(playing channels: some Sequence<Int>) {
        playingMask = 0
        for c in channels where (0..<16).contains(c) { playingMask |= 1 << UInt16(c) }
    }

    public func plays(channel: UInt8) -> Bool { playingMask & (1 << UInt16(channel & 15)) != 0 }
}

/// A MIDI note or controller that drives a parameter (e.g. CC 102 on channel 16 starts the beat loop).
public struct ControlMapping: Sendable, Equatable {
    public enum Trigger: Sendable, Equatable {
        /// The controller's 0–127 value is scaled onto the parameter's range (toggles: ≥ 64 is on).
        case controller(UInt8)
        /// Each note-on flips a toggle (or jumps a continuous parameter between its ends).
        case note(UInt8)
    }

    public var channel: UInt8?
    public var trigger: Trigger
    public var parameter: String

    /// `channel` nil listens on every channel; mapped messages are consumed (they play no notes).
    public init(channel: UInt8?, trigger: Trigger, parameter: String) {
        self.channel = channel
        self.trigger = trigger
        self.parameter = parameter
    }

    func matches(_ message: MIDIMessage) -> Bool { Self.matches(message, channel: channel, trigger: trigger) }

    static func matches(_ message: MIDIMessage, channel: UInt8?, trigger: Trigger) -> Bool {
        if let channel, channel != message.channel { return false }
        switch (trigger, message) {
        case (.controller(let cc), .controlChange(_, let c, _)): return cc == c
        case (.note(let n), .noteOn(_, let k, let v)): return n == k && v > 0
        case (.note(let n), .noteOff(_, let k, _)): return n == k
        case (.note(let n), .noteOn(_, let k, 0)): return n == k
        default: return false
        }
    }
}

/// A control mapping as the render thread uses it: the parameter resolved to its index and the
/// descriptor's range and kind as plain values, so handling a mapped message copies no `String`
/// (the mapping's parameter name, the descriptor's name, unit, summary and choice names).
struct RenderControl {
    enum Stepping { case continuous, whole, toggle }

    let channel: UInt8?
    let trigger: ControlMapping.Trigger
    let parameter: Int
    let lower: Double
    let upper: Double
    let stepping: Stepping
    /// The bus whose loop `parameter` starts (`BusID.rawValue`), −1 for other parameters.
    let loopBus: Int

    init(_ mapping: ControlMapping, parameter: Int, descriptor d: ParameterDescriptor, loopBus: Int) {
        channel = mapping.channel
        trigger = mapping.trigger
        self.parameter = parameter
        self.loopBus = loopBus
        lower = d.range.lowerBound
        upper = d.range.upperBound
        switch d.kind {
        case .continuous: stepping = .continuous
        case .integer, .choice: stepping = .whole
        case .toggle: stepping = .toggle
        }
    }

    func matches(_ message: MIDIMessage) -> Bool { ControlMapping.matches(message, channel: channel, trigger: trigger) }
}
