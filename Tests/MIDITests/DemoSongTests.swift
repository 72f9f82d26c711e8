import MIDI
import Testing

/// Checks the committed `Sounds/demo.mid` that `make-sounds` generates against what the engine expects.
@Suite struct DemoSongTests {
    static let path: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/Sounds/demo.mid"
    }()

    @Test func tracksChannelsAndLoopControls() throws {
        let song = try MIDIFile.read(path: Self.path)
        #expect(song.format == 1)
        #expect(song.trackNames == ["tempo", "lead", "pads", "control"])
        let channelsByTrack = Dictionary(grouping: song.events, by: \.track).mapValues { Set($0.map(\.message.channel)) }
        #expect(channelsByTrack == [1: [0], 2: [1], 3: [15]])
        // 10 bars at 120 BPM (20 s) + 2 bars at 110 BPM (8 quarters × 60/110 s).
        let end = 20 + 8 * 60 / 110.0
        let controls = song.events.filter { $0.track == 3 }
        #expect(controls.map(\.message) == [
            .controlChange(channel: 15, controller: 102, value: 127), .controlChange(channel: 15, controller: 103, value: 127),
            .controlChange(channel: 15, controller: 102, value: 0), .controlChange(channel: 15, controller: 103, value: 0),
        ])
        #expect(controls.map(\.seconds).prefix(2).allSatisfy { $0 == 0 })
        // The file stores 110 BPM as a whole number of µs per quarter (545 455): 8 quarters drift ≤ 4 µs.
        #expect(controls.map(\.seconds).suffix(2).allSatisfy { abs($0 - end) < 1e-5 })
        #expect((20...30).contains(song.durationSeconds))
    }

    @Test func leadBendsAndPadsUsePedalWithinEightVoices() throws {
        let song = try MIDIFile.read(path: Self.path)
        let lead = song.events.filter { $0.track == 1 }.map(\.message)
        #expect(lead.contains { if case .pitchBend(_, let value) = $0 { value > 2000 } else { false } })
        #expect(lead.last { if case .pitchBend = $0 { true } else { false } } == .pitchBend(channel: 0, value: 0))
        // Replay the pads with the sustain pedal to count simultaneously sounding notes.
        var held = Set<UInt8>(), sustained = Set<UInt8>(), pedalDown = false, most = 0, pedalPresses = 0
        for message in song.events.filter({ $0.track == 2 }).map(\.message.normalized) {
            switch message {
            case .noteOn(_, let note, _): held.insert(note); sustained.remove(note)
            case .noteOff(_, let note, _):
                held.remove(note)
                if pedalDown { sustained.insert(note) }
            case .controlChange(_, 64, let value):
                pedalDown = value >= 64
                if pedalDown { pedalPresses += 1 } else { sustained.removeAll() }
            default: break
            }
            most = max(most, held.union(sustained).count)
        }
        #expect(pedalPresses >= 4)
        #expect((3...8).contains(most))
    }
}
