import MIDI
import Testing

@Suite struct MIDIByteDecoderTests {
    private func decodeAll(_ bytes: [UInt8]) -> [MIDIMessage] {
        var decoder = MIDIByteDecoder()
        return bytes.compactMap { decoder.decode($0) }
    }

    @Test func decodesEveryChannelMessageKind() {
        let messages = decodeAll([
            0x93, 60, 100, 0x83, 60, 0, 0xA1, 61, 5, 0xB2, 7, 90, 0xC4, 12, 0xD5, 33, 0xE6, 0x00, 0x40, 0xEF, 0x7F, 0x7F,
            0xE0, 0x00, 0x00,
        ])
        #expect(messages == [
            .noteOn(channel: 3, note: 60, velocity: 100), .noteOff(channel: 3, note: 60, velocity: 0),
            .polyPressure(channel: 1, note: 61, pressure: 5), .controlChange(channel: 2, controller: 7, value: 90),
            .programChange(channel: 4, program: 12), .channelPressure(channel: 5, pressure: 33),
            .pitchBend(channel: 6, value: 0), .pitchBend(channel: 15, value: 8191), .pitchBend(channel: 0, value: -8192),
        ])
    }

    @Test func runningStatusRepeatsTheLastStatus() {
        #expect(decodeAll([0x90, 60, 100, 64, 90, 60, 0, 0xC0, 1, 2]) == [
            .noteOn(channel: 0, note: 60, velocity: 100), .noteOn(channel: 0, note: 64, velocity: 90),
            .noteOn(channel: 0, note: 60, velocity: 0), .programChange(channel: 0, program: 1),
            .programChange(channel: 0, program: 2),
        ])
    }

    @Test func realTimeBytesAnywhereAreIgnored() {
        #expect(decodeAll([0xF8, 0x90, 0xF8, 60, 0xFE, 100, 0xFA, 62, 0xFF, 80]) == [
            .noteOn(channel: 0, note: 60, velocity: 100), .noteOn(channel: 0, note: 62, velocity: 80),
        ])
    }

    @Test func sysExAndSystemCommonAreSkippedAndCancelRunningStatus() {
        let bytes: [UInt8] = [
            0x90, 60, 100, 0xF0, 0x7E, 0x7F, 0x06, 0x01, 0xF7,  // SysEx identity request
            61, 100,  // stray: running status was cancelled
            0xF2, 0x10, 0x20,  // song position: its data is dropped
            0xB0, 64, 127,
        ]
        #expect(decodeAll(bytes) == [
            .noteOn(channel: 0, note: 60, velocity: 100), .controlChange(channel: 0, controller: 64, value: 127),
        ])
    }

    @Test func strayAndTruncatedDataIsDroppedWithoutCrashing() {
        // Data before any status, a message cut short by a new status, then a good one.
        #expect(decodeAll([0x40, 0x41, 0x90, 60, 0x80, 60, 0]) == [.noteOff(channel: 0, note: 60, velocity: 0)])
        // Every byte value in a pseudo-random stream: must never trap.
        var state: UInt32 = 12_345
        var decoder = MIDIByteDecoder()
        var count = 0
        for _ in 0..<100_000 {
            state = state &* 1_664_525 &+ 1_013_904_223
            if decoder.decode(UInt8(truncatingIfNeeded: state >> 24)) != nil { count += 1 }
        }
        #expect(count > 0)
    }

    @Test func messageBytesRoundTripThroughTheDecoder() {
        let messages: [MIDIMessage] = [
            .noteOn(channel: 9, note: 36, velocity: 127), .pitchBend(channel: 1, value: -1234),
            .controlChange(channel: 15, controller: 102, value: 127), .channelPressure(channel: 2, pressure: 3),
        ]
        #expect(decodeAll(messages.flatMap(\.bytes)) == messages)
    }
}
