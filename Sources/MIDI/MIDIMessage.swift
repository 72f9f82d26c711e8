/// A channel voice or mode message, or a recognised system-exclusive message, decoded. Channels
/// are 0–15; data values 0–127; pitch bend is signed, −8192…8191 (0 = centre). Plain value: safe
/// to pass through lock-free queues and to switch over on the render thread.
import MemberwiseInit

public enum MIDIMessage: Sendable, Equatable, Hashable, BitwiseCopyable {
    case noteOn(channel: UInt8, note: UInt8, velocity: UInt8)
    case noteOff(channel: UInt8, note: UInt8, velocity: UInt8)
    case polyPressure(channel: UInt8, note: UInt8, pressure: UInt8)
    case controlChange(channel: UInt8, controller: UInt8, value: UInt8)
    case programChange(channel: UInt8, program: UInt8)
    case channelPressure(channel: UInt8, pressure: UInt8)
    case pitchBend(channel: UInt8, value: Int16)
    /// A SysEx the module acts on (GM/GS/XG reset, GS rhythm part, master volume): it concerns
    /// every channel (or, for a rhythm part, the one it names), so handle it before `channel`.
    case system(SystemExclusive)

    /// The channel of a channel message; for `.system`, the rhythm part's channel, else 0.
    public var channel: UInt8 {
        @_noAllocation get {
            switch self {
            case .noteOn(let c, _, _), .noteOff(let c, _, _), .polyPressure(let c, _, _),
                .controlChange(let c, _, _), .programChange(let c, _), .channelPressure(let c, _),
                .pitchBend(let c, _):
                return c
            case .system(.rhythmPart(let c, _)): return c
            case .system: return 0
            }
        }
    }

    /// A note-on with velocity 0 is a note-off (MIDI 1.0 running-status idiom).
    public var normalized: MIDIMessage {
        @_noAllocation get {
            if case .noteOn(let c, let n, 0) = self { return .noteOff(channel: c, note: n, velocity: 64) }
            return self
        }
    }
}

/// Controller numbers with a defined meaning that the instruments act on.
public enum MIDIController {
    public static let modulationWheel: UInt8 = 1
    public static let volume: UInt8 = 7
    public static let pan: UInt8 = 10
    public static let expression: UInt8 = 11
    public static let sustainPedal: UInt8 = 64
    public static let sostenutoPedal: UInt8 = 66
    public static let softPedal: UInt8 = 67
    /// Effects 1 depth: reverb send level.
    public static let reverbSend: UInt8 = 91
    /// Effects 3 depth: chorus send level.
    public static let chorusSend: UInt8 = 93
    public static let allSoundOff: UInt8 = 120
    public static let resetAllControllers: UInt8 = 121
    public static let allNotesOff: UInt8 = 123
    /// 124–127: omni off, omni on, mono, poly. We stay omni and poly; each only releases the
    /// channel's notes, as MIDI 1.0 asks of a mode change (docs/GENERAL-MIDI.md).
    public static let modeMessages: ClosedRange<UInt8> = 124...127

    /// Whether `number` sets a send level (CC91 or CC93).
    @_noAllocation
    public static func isSend(_ number: UInt8) -> Bool { number == reverbSend || number == chorusSend }
}

/// A message placed at a frame inside the block being rendered.
@PublicInit
public struct TimedMIDIMessage: Sendable, Equatable, BitwiseCopyable {
    public var frameOffset: Int
    public var message: MIDIMessage
}
