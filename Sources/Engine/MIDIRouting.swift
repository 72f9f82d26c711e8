import MIDI

/// Which instruments a MIDI channel plays. Channels are 0-based here (MIDI channel 1 = 0).
public struct ChannelRouting: Sendable, Equatable {
    public struct Targets: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let sampler = Targets(rawValue: 1)
        public static let synth = Targets(rawValue: 2)
    }

    public var targets: [Targets]

    /// Sampler on channel 1, synth on channel 2, nothing elsewhere.
    public init() {
        targets = [Targets](repeating: [], count: 16)
        targets[0] = .sampler
        targets[1] = .synth
    }

    public func targets(channel: UInt8) -> Targets { targets[Int(channel & 15)] }
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

    func matches(_ message: MIDIMessage) -> Bool {
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
