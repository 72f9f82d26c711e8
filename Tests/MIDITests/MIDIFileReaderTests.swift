import MIDI
import Testing

@Suite struct MIDIFileReaderTests {
    /// Seconds computed from integer ticks and µs tempos are exact up to Double rounding.
    let timeTolerance = 1e-12

    @Test func type0WithRunningStatusAndMidSongTempoChange() throws {
        // 480 ticks per quarter, default 120 BPM (0.5 s/quarter) until tick 960, then 60 BPM.
        let track: [UInt8] = [0x00, 0x90, 60, 100]  // tick 0: note on
            + [0x83, 0x60, 60, 0]  // tick 480, running status: note on vel 0
            + [0x00, 0xFF, 0x03, 0x04] + Array("solo".utf8)  // name (cancels running status)
            + SMFBuilder.delta(480) + SMFBuilder.tempo(microseconds: 1_000_000)  // tick 960
            + SMFBuilder.delta(480) + [0x91, 64, 90]  // tick 1440
            + [0x00, 0xF0, 0x03, 0x43, 0x12, 0xF7]  // SysEx skipped
            + SMFBuilder.delta(480) + [0xB1, 64, 127]  // tick 1920
            + SMFBuilder.endOfTrack
        let file = try MIDIFile.parse(SMFBuilder.file(format: 0, tracks: [track]))
        #expect(file.format == 0)
        #expect(file.ticksPerQuarter == 480)
        #expect(file.trackNames == ["solo"])
        #expect(file.events.map(\.message) == [
            .noteOn(channel: 0, note: 60, velocity: 100), .noteOn(channel: 0, note: 60, velocity: 0),
            .noteOn(channel: 1, note: 64, velocity: 90), .controlChange(channel: 1, controller: 64, value: 127),
        ])
        // Tick 960 is 1.0 s at 120 BPM; each further 480 ticks lasts 1.0 s at 60 BPM.
        let expected = [0.0, 0.5, 2.0, 3.0]
        for (event, seconds) in zip(file.events, expected) {
            #expect(abs(event.seconds - seconds) < timeTolerance)
        }
        #expect(abs(file.durationSeconds - 3.0) < timeTolerance)
    }

    @Test func type1TempoMapFromConductorAppliesToAllTracksAndMergeIsStable() throws {
        let conductor = [0x00] + SMFBuilder.tempo(microseconds: 600_000)  // 100 BPM
            + SMFBuilder.delta(960) + SMFBuilder.tempo(microseconds: 400_000)  // 150 BPM from tick 960
            + SMFBuilder.endOfTrack
        let lead: [UInt8] = [0x00, 0x90, 60, 100] + SMFBuilder.delta(960) + [0x80, 60, 0]
            + SMFBuilder.delta(960) + [0x90, 62, 100] + SMFBuilder.delta(480) + [0x80, 62, 0] + SMFBuilder.endOfTrack
        let pads: [UInt8] = SMFBuilder.delta(480) + [0x91, 48, 80, 0x00, 52, 80]  // running status chord
            + SMFBuilder.delta(480) + [0xE1, 0x00, 0x60] + SMFBuilder.endOfTrack
        let file = try MIDIFile.parse(SMFBuilder.file(format: 1, tracks: [conductor, lead, pads]))
        let summary = file.events.map { ($0.track, $0.message) }
        #expect(summary.map(\.0) == [1, 2, 2, 1, 2, 1, 1])
        #expect(file.events[3].message == .noteOff(channel: 0, note: 60, velocity: 0))
        #expect(file.events[4].message == .pitchBend(channel: 1, value: 0x60 << 7 - 8192))
        // 0.6 s per quarter until tick 960 (1.2 s), then 0.4 s per quarter.
        let expected = [0.0, 0.6, 0.6, 1.2, 1.2, 2.0, 2.4]
        for (event, seconds) in zip(file.events, expected) {
            #expect(abs(event.seconds - seconds) < timeTolerance)
        }
        #expect(abs(file.durationSeconds - 2.4) < timeTolerance)
    }

    @Test func smpteDivisionCountsTicksPerSecond() throws {
        // −25 frames per second × 40 ticks per frame = 1000 ticks per second; tempo events do not apply.
        let track = SMFBuilder.tempo(microseconds: 1_000_000).with(delta: 0)
            + SMFBuilder.delta(1500) + [0x90, 60, 100] + SMFBuilder.endOfTrack
        let file = try MIDIFile.parse(SMFBuilder.file(format: 0, division: 0xE728, tracks: [track]))
        #expect(file.ticksPerSecond == 1000)
        #expect(file.events.count == 1)
        #expect(abs(file.events[0].seconds - 1.5) < timeTolerance)
    }

    @Test func unknownChunksBetweenTracksAreSkipped() throws {
        var bytes = SMFBuilder.file(format: 0, tracks: [], declaredTracks: 1)
        bytes += Array("XFIH".utf8) + SMFBuilder.be32(3) + [1, 2, 3]
        bytes += Array("MTrk".utf8) + SMFBuilder.be32(8) + [0x00, 0x90, 60, 100] + SMFBuilder.endOfTrack
        #expect(try MIDIFile.parse(bytes).events.count == 1)
    }
}

extension Array where Element == UInt8 {
    /// Prefixes an event with a delta time.
    fileprivate func with(delta ticks: Int) -> [UInt8] { SMFBuilder.delta(ticks) + self }
}
