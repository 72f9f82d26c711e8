import ALSAIO
import MIDI
import Testing

@Suite struct SequencerEventTranslatorTests {
    typealias Fields = SequencerEventFields

    @Test func channelMessagesTranslate() {
        let cases: [(Fields, MIDIMessage)] = [
            (Fields(type: SequencerEventType.noteOn, channel: 3, note: 60, velocity: 100), .noteOn(channel: 3, note: 60, velocity: 100)),
            (Fields(type: SequencerEventType.noteOff, channel: 3, note: 60, velocity: 40), .noteOff(channel: 3, note: 60, velocity: 40)),
            (Fields(type: SequencerEventType.keyPressure, channel: 1, note: 61, velocity: 70), .polyPressure(channel: 1, note: 61, pressure: 70)),
            (Fields(type: SequencerEventType.controller, channel: 15, param: 64, value: 127), .controlChange(channel: 15, controller: 64, value: 127)),
            (Fields(type: SequencerEventType.programChange, channel: 9, value: 42), .programChange(channel: 9, program: 42)),
            (Fields(type: SequencerEventType.channelPressure, channel: 2, value: 90), .channelPressure(channel: 2, pressure: 90)),
            (Fields(type: SequencerEventType.pitchBend, channel: 0, value: -8192), .pitchBend(channel: 0, value: -8192)),
            (Fields(type: SequencerEventType.pitchBend, channel: 0, value: 8191), .pitchBend(channel: 0, value: 8191)),
        ]
        for (fields, expected) in cases {
            #expect(SequencerEventTranslator.message(from: fields) == expected)
        }
    }

    @Test func noteOnWithVelocityZeroIsNoteOff() {
        let fields = Fields(type: SequencerEventType.noteOn, channel: 0, note: 64, velocity: 0)
        guard case .noteOff(0, 64, _) = SequencerEventTranslator.message(from: fields) else {
            Issue.record("expected a note-off")
            return
        }
    }

    @Test func nonChannelEventsAreDropped() {
        // 0 system, 5 NOTE-with-duration, 14 CONTROL14, 36 clock, 130 SysEx, 255 none
        for type: UInt8 in [0, 5, 14, 36, 130, 255, SequencerEventType.portStart, SequencerEventType.clientExit] {
            #expect(SequencerEventTranslator.message(from: Fields(type: type, channel: 0, note: 60, velocity: 100)) == nil)
        }
    }

    /// A SysEx event's bytes (as the sequencer delivers them, `F0` … `F7`): ours become messages,
    /// anything else (an identity request, a fragment without `F0`) nothing.
    @Test func sysExBytesTranslate() {
        func message(_ bytes: [UInt8]) -> MIDIMessage? {
            bytes.withUnsafeBytes { SequencerEventTranslator.message(sysex: $0) }
        }
        #expect(message([0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7]) == .system(.reset(.generalMIDI)))
        #expect(message(SystemExclusive.rhythmPart(channel: 15, map: 1).bytes) == .system(.rhythmPart(channel: 15, map: 1)))
        #expect(message(SystemExclusive.masterVolume(100).bytes) == .system(.masterVolume(100)))
        #expect(message([0xF0, 0x7E, 0x7F, 0x06, 0x01, 0xF7]) == nil)
        #expect(message([0x7E, 0x7F, 0x09, 0x01, 0xF7]) == nil)
        #expect(message([]) == nil)
        #expect(SequencerEventTranslator.fields(for: .system(.reset(.gs))).type == SequencerEventType.sysex)
    }

    @Test func outOfRangeDataIsMaskedNotTrapped() {
        #expect(
            SequencerEventTranslator.message(from: Fields(type: SequencerEventType.noteOn, channel: 0xF2, note: 200, velocity: 255))
                == .noteOn(channel: 2, note: 72, velocity: 127))
        #expect(
            SequencerEventTranslator.message(from: Fields(type: SequencerEventType.controller, channel: 0, param: 7, value: 100_000))
                == .controlChange(channel: 0, controller: 7, value: 127))
        #expect(
            SequencerEventTranslator.message(from: Fields(type: SequencerEventType.controller, channel: 0, param: 7, value: -5))
                == .controlChange(channel: 0, controller: 7, value: 0))
        #expect(SequencerEventTranslator.message(from: Fields(type: SequencerEventType.controller, param: 300, value: 1)) == nil)
        #expect(
            SequencerEventTranslator.message(from: Fields(type: SequencerEventType.pitchBend, value: Int32.max))
                == .pitchBend(channel: 0, value: 8191))
        #expect(
            SequencerEventTranslator.message(from: Fields(type: SequencerEventType.pitchBend, value: Int32.min))
                == .pitchBend(channel: 0, value: -8192))
    }

    @Test func everyMessageRoundTripsThroughEventFields() {
        let messages: [MIDIMessage] = [
            .noteOn(channel: 5, note: 1, velocity: 2), .noteOff(channel: 6, note: 127, velocity: 0),
            .polyPressure(channel: 7, note: 3, pressure: 4), .controlChange(channel: 8, controller: 1, value: 64),
            .programChange(channel: 9, program: 127), .channelPressure(channel: 10, pressure: 5),
            .pitchBend(channel: 11, value: -1234),
        ]
        for message in messages {
            #expect(SequencerEventTranslator.message(from: SequencerEventTranslator.fields(for: message)) == message)
        }
    }
}
