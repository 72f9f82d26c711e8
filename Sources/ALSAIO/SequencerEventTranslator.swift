import CALSA
import MIDI
import MemberwiseInit

/// ALSA sequencer event type codes we act on (`SND_SEQ_EVENT_*`).
public enum SequencerEventType {
    public static let noteOn = UInt8(SND_SEQ_EVENT_NOTEON.rawValue)
    public static let noteOff = UInt8(SND_SEQ_EVENT_NOTEOFF.rawValue)
    public static let keyPressure = UInt8(SND_SEQ_EVENT_KEYPRESS.rawValue)
    public static let controller = UInt8(SND_SEQ_EVENT_CONTROLLER.rawValue)
    public static let programChange = UInt8(SND_SEQ_EVENT_PGMCHANGE.rawValue)
    public static let channelPressure = UInt8(SND_SEQ_EVENT_CHANPRESS.rawValue)
    public static let pitchBend = UInt8(SND_SEQ_EVENT_PITCHBEND.rawValue)
    /// A variable-length event: its bytes (`F0` … `F7`) are outside the fixed fields.
    public static let sysex = UInt8(SND_SEQ_EVENT_SYSEX.rawValue)
    public static let clientStart = UInt8(SND_SEQ_EVENT_CLIENT_START.rawValue)
    public static let clientExit = UInt8(SND_SEQ_EVENT_CLIENT_EXIT.rawValue)
    public static let portStart = UInt8(SND_SEQ_EVENT_PORT_START.rawValue)
    public static let portExit = UInt8(SND_SEQ_EVENT_PORT_EXIT.rawValue)
    public static let portChange = UInt8(SND_SEQ_EVENT_PORT_CHANGE.rawValue)
    public static let portSubscribed = UInt8(SND_SEQ_EVENT_PORT_SUBSCRIBED.rawValue)
    public static let portUnsubscribed = UInt8(SND_SEQ_EVENT_PORT_UNSUBSCRIBED.rawValue)
}

/// The parts of an `snd_seq_event_t` a channel message uses, read out of its union:
/// `note` view (channel, note, velocity) for note and key-pressure events, `control` view
/// (channel, param, value) for the others. Plain value so translation is testable without ALSA.
@PublicInit
public struct SequencerEventFields: Sendable, Equatable {
    public var type: UInt8
    public var channel: UInt8 = 0
    public var note: UInt8 = 0
    public var velocity: UInt8 = 0
    public var param: UInt32 = 0
    public var value: Int32 = 0
}

/// ALSA sequencer events ↔ `MIDIMessage`. No allocation; any thread.
public enum SequencerEventTranslator {
    /// The channel message an event carries, or nil for anything else (SysEx, whose bytes are
    /// not in the fields: `message(sysex:)`; clock, NRPN composites, ALSA's NOTE-with-duration…):
    /// the caller drops and counts those.
    /// Out-of-range data from a misbehaving client is masked/clamped, never trapped on.
    /// Note-on with velocity 0 comes back as note-off (`MIDIMessage.normalized`).
    public static func message(from fields: SequencerEventFields) -> MIDIMessage? {
        let channel = fields.channel & 0x0F
        let data = UInt8(clamping: max(0, min(127, fields.value)))
        switch fields.type {
        case SequencerEventType.noteOn:
            return MIDIMessage.noteOn(channel: channel, note: fields.note & 0x7F, velocity: fields.velocity & 0x7F).normalized
        case SequencerEventType.noteOff:
            return .noteOff(channel: channel, note: fields.note & 0x7F, velocity: fields.velocity & 0x7F)
        case SequencerEventType.keyPressure:
            return .polyPressure(channel: channel, note: fields.note & 0x7F, pressure: fields.velocity & 0x7F)
        case SequencerEventType.controller:
            guard fields.param < 128 else { return nil }
            return .controlChange(channel: channel, controller: UInt8(fields.param), value: data)
        case SequencerEventType.programChange:
            return .programChange(channel: channel, program: data)
        case SequencerEventType.channelPressure:
            return .channelPressure(channel: channel, pressure: data)
        case SequencerEventType.pitchBend:
            return .pitchBend(channel: channel, value: Int16(max(-8192, min(8191, fields.value))))
        default:
            return nil
        }
    }

    /// The message a SysEx event's bytes carry (`F0` … `F7`, as the sequencer delivers them;
    /// `SystemExclusive` says which are recognised), or nil. A SysEx the sequencer split into
    /// several events is not one we act on (ours are at most 11 bytes). No allocation; any thread.
    public static func message(sysex bytes: UnsafeRawBufferPointer) -> MIDIMessage? {
        guard bytes.count >= 2, bytes[0] == 0xF0 else { return nil }
        return SystemExclusive.decode(UnsafeRawBufferPointer(rebasing: bytes[1...])).map(MIDIMessage.system)
    }

    /// The event fields that carry `message` (the sender's direction; a SysEx's bytes are
    /// attached by the sender, `SystemExclusive.bytes`).
    public static func fields(for message: MIDIMessage) -> SequencerEventFields {
        switch message {
        case .noteOn(let channel, let note, let velocity):
            return SequencerEventFields(type: SequencerEventType.noteOn, channel: channel, note: note, velocity: velocity)
        case .noteOff(let channel, let note, let velocity):
            return SequencerEventFields(type: SequencerEventType.noteOff, channel: channel, note: note, velocity: velocity)
        case .polyPressure(let channel, let note, let pressure):
            return SequencerEventFields(type: SequencerEventType.keyPressure, channel: channel, note: note, velocity: pressure)
        case .controlChange(let channel, let controller, let value):
            return SequencerEventFields(
                type: SequencerEventType.controller, channel: channel, param: UInt32(controller), value: Int32(value))
        case .programChange(let channel, let program):
            return SequencerEventFields(type: SequencerEventType.programChange, channel: channel, value: Int32(program))
        case .channelPressure(let channel, let pressure):
            return SequencerEventFields(type: SequencerEventType.channelPressure, channel: channel, value: Int32(pressure))
        case .pitchBend(let channel, let value):
            return SequencerEventFields(type: SequencerEventType.pitchBend, channel: channel, value: Int32(value))
        case .system:
            return SequencerEventFields(type: SequencerEventType.sysex)
        }
    }

    /// Reads the union view that matches the event's type.
    static func fields(of event: snd_seq_event_t) -> SequencerEventFields {
        switch event.type {
        case SequencerEventType.noteOn, SequencerEventType.noteOff, SequencerEventType.keyPressure:
            let note = event.data.note
            return SequencerEventFields(type: event.type, channel: note.channel, note: note.note, velocity: note.velocity)
        default:
            let control = event.data.control
            return SequencerEventFields(type: event.type, channel: control.channel, param: control.param, value: control.value)
        }
    }

    /// Fills an event's type and data from a channel `message` (source/destination are set by the
    /// caller; a SysEx also needs its bytes attached, which `SequencerSender.send` does).
    static func encode(_ message: MIDIMessage, into event: inout snd_seq_event_t) {
        let fields = fields(for: message)
        event.type = fields.type
        switch fields.type {
        case SequencerEventType.noteOn, SequencerEventType.noteOff, SequencerEventType.keyPressure:
            event.data.note.channel = fields.channel
            event.data.note.note = fields.note
            event.data.note.velocity = fields.velocity
        default:
            event.data.control.channel = fields.channel
            event.data.control.param = fields.param
            event.data.control.value = fields.value
        }
    }
}
