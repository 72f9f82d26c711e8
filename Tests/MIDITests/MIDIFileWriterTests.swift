import Foundation
import MIDI
import Testing

@Suite struct MIDIFileWriterTests {
    @Test func writtenFileReadsBackWithTempoNamesAndOrder() throws {
        let lead = MIDIFileWriter.Track(name: "lead", events: [
            .init(tick: 0, message: .noteOn(channel: 0, note: 60, velocity: 100)),
            .init(tick: 480, message: .noteOff(channel: 0, note: 60, velocity: 0)),
            .init(tick: 480, message: .noteOn(channel: 0, note: 60, velocity: 90)),  // re-strike stays after the off
            .init(tick: 200_000, message: .pitchBend(channel: 0, value: -8192)),
        ])
        let control = MIDIFileWriter.Track(name: "control", events: [
            .init(tick: 960, message: .controlChange(channel: 15, controller: 102, value: 127)),
        ])
        let tempos = [MIDIFileWriter.TempoChange(tick: 0, beatsPerMinute: 120), .init(tick: 960, beatsPerMinute: 60)]
        let bytes = MIDIFileWriter.bytes(tracks: [lead, control], ticksPerQuarter: 480, tempoChanges: tempos)
        let file = try MIDIFile.parse(bytes)
        #expect(file.format == 1)
        #expect(file.trackNames == ["tempo", "lead", "control"])
        #expect(file.events.map(\.message) == [
            .noteOn(channel: 0, note: 60, velocity: 100), .noteOff(channel: 0, note: 60, velocity: 0),
            .noteOn(channel: 0, note: 60, velocity: 90), .controlChange(channel: 15, controller: 102, value: 127),
            .pitchBend(channel: 0, value: -8192),
        ])
        #expect(file.events.map(\.track) == [1, 1, 1, 2, 1])
        // 960 ticks at 120 BPM = 1 s; the rest at 60 BPM: (200000 − 960) / 480 s.
        let expected = 1 + (200_000.0 - 960) / 480
        #expect(abs(file.events[4].seconds - expected) < 1e-9)
    }

    @Test func writeToDiskAndRead() throws {
        let path = NSTemporaryDirectory() + "midiwriter-\(UUID().uuidString).mid"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let track = MIDIFileWriter.Track(name: "t", events: [.init(tick: 0, message: .programChange(channel: 3, program: 5))])
        try MIDIFileWriter.write(path: path, tracks: [track])
        #expect(try MIDIFile.read(path: path).events.map(\.message) == [.programChange(channel: 3, program: 5)])
    }
}
