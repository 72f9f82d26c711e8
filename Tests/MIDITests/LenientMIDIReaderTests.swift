import MIDI
import Testing

/// Untidy files that real players accept are read with exactly one warning line naming the byte
/// offset; what would lose music (a track cut off inside an event) is still an error.
@Suite struct LenientMIDIReaderTests {
    /// Running status carried across a track-name meta event and a SysEx (spec: cancelled there;
    /// mido and TiMidity++ play on with the last channel status).
    @Test func runningStatusAfterMetaAndSysExContinues() throws {
        let track: [UInt8] = [0x00, 0x90, 60, 100]
            + [0x00, 0xFF, 0x01, 0x02, 0x68, 0x69]  // a text event
            + [0x60, 64, 90]  // running status (note on) continues: its first data byte is at offset 33
            + [0x00, 0xF0, 0x05, 0x7E, 0x7F, 0x09, 0x01, 0xF7]  // GM System On
            + [0x60, 60, 0]  // and again after the SysEx
            + SMFBuilder.endOfTrack
        let file = try MIDIFile.parse(SMFBuilder.file(format: 0, tracks: [track]))
        #expect(file.events.map(\.message) == [
            .noteOn(channel: 0, note: 60, velocity: 100), .noteOn(channel: 0, note: 64, velocity: 90),
            .system(.reset(.generalMIDI)), .noteOn(channel: 0, note: 60, velocity: 0),
        ])
        #expect(file.warnings.count == 1, "\(file.warnings)")
        #expect(file.warnings.first?.hasPrefix("byte offset 33: running status continues after a meta or SysEx event (2 times)") == true,
                "\(file.warnings)")
    }

    /// The last track's length field says 3 bytes more than the file holds, but the track ends
    /// with its End of Track: read, with one warning naming the chunk.
    @Test func lastTrackLongerThanTheFileButEndedIsRead() throws {
        let track: [UInt8] = [0x00, 0x90, 60, 100, 0x83, 0x60, 0x80, 60, 0] + SMFBuilder.endOfTrack
        var bytes = SMFBuilder.file(format: 0, tracks: [track])
        bytes.replaceSubrange(18..<22, with: SMFBuilder.be32(UInt32(track.count + 3)))
        let file = try MIDIFile.parse(bytes)
        #expect(file.events.count == 2)
        #expect(file.durationSeconds == 0.5)
        #expect(file.warnings == ["byte offset 14: track 0 declares 16 bytes, 3 more than the file holds; read up to its End of Track"])
    }

    /// A file cut off inside its last track's End of Track (1 to 4 of its bytes gone, the track's
    /// length field now past the file's end) has lost no event: read whole, with one warning naming
    /// the chunk and where its last event ends. TiMidity++ plays it too; FluidSynth 2.3 refuses it.
    @Test(arguments: 1...4)
    func aTrackCutInItsEndOfTrackIsRead(cut: Int) throws {
        let track: [UInt8] = [0x00, 0x90, 60, 100, 0x83, 0x60, 0x80, 60, 0] + SMFBuilder.endOfTrack
        let file = try MIDIFile.parse(Array(SMFBuilder.file(format: 0, tracks: [track]).dropLast(cut)))
        #expect(file.events.map(\.message) == [.noteOn(channel: 0, note: 60, velocity: 100), .noteOff(channel: 0, note: 60, velocity: 0)])
        #expect(file.durationSeconds == 0.5)
        #expect(file.warnings == [
            "byte offset 14: track 0 declares 13 bytes, \(cut) more than the file holds, and the file ends in its End of Track "
                + "(byte offset 31); read all its events",
        ])
    }

    /// A track cut inside an event before its End of Track (a note-off's bytes, a text event's):
    /// an event would be lost, so it is an error naming the chunk.
    @Test(arguments: [5, 6, 7, 11])
    func aTrackCutInsideAnEventIsStillAnError(cut: Int) {
        let track: [UInt8] = [0x00, 0x90, 60, 100, 0x83, 0x60, 0x80, 60, 0] + [0x00, 0xFF, 0x01, 0x02, 0x68, 0x69] + SMFBuilder.endOfTrack
        let bytes = Array(SMFBuilder.file(format: 0, tracks: [track]).dropLast(cut))
        let error = #expect(throws: MIDIFileError.self) { try MIDIFile.parse(bytes) }
        #expect(error?.byteOffset == 14)
        #expect(error?.reason.contains("truncated") == true)
    }
}
