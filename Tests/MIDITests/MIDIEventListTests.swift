import MIDI
import Testing

/// A song's events are stored in 16 bytes each and read back exactly.
@Suite struct MIDIEventListTests {
    @Test func sixteenBytesAnEvent() {
        #expect(MIDIEventList.bytesPerEvent == 16)
    }

    /// Every kind of channel message, at its extremes, on every channel, round-trips.
    @Test func everyMessageKindRoundTrips() {
        var events: [MIDIFileEvent] = []
        for channel: UInt8 in [0, 9, 15] {
            for (a, b): (UInt8, UInt8) in [(0, 0), (60, 1), (127, 127)] {
                for message: MIDIMessage in [
                    .noteOn(channel: channel, note: a, velocity: b), .noteOff(channel: channel, note: a, velocity: b),
                    .polyPressure(channel: channel, note: a, pressure: b), .controlChange(channel: channel, controller: a, value: b),
                    .programChange(channel: channel, program: a), .channelPressure(channel: channel, pressure: b),
                ] {
                    events.append(MIDIFileEvent(seconds: Double(events.count) * 0.001, track: events.count % 3, message: message))
                }
            }
            for bend: Int16 in [-8192, -1, 0, 1, 8191] {
                events.append(MIDIFileEvent(seconds: 3600.5, track: 65_535, message: .pitchBend(channel: channel, value: bend)))
            }
        }
        #expect(Array(MIDIEventList(events)) == events)
    }
}
