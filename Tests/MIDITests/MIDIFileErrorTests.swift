import MIDI
import Testing

@Suite struct MIDIFileErrorTests {
    private func failure(_ bytes: [UInt8]) -> MIDIFileError? {
        do {
            _ = try MIDIFile.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    private let goodTrack: [UInt8] = [0x00, 0x90, 60, 100] + SMFBuilder.endOfTrack

    @Test func badHeader() {
        let error = failure(Array("RIFF".utf8) + [UInt8](repeating: 0, count: 20))
        #expect(error?.byteOffset == 0)
        #expect(error?.description.contains("byte offset 0") == true)
    }

    @Test func type2IsRefusedClearly() {
        let error = failure(SMFBuilder.file(format: 2, tracks: [goodTrack]))
        #expect(error?.reason.contains("type 2") == true)
    }

    @Test func truncatedTrackChunk() {
        let bytes = SMFBuilder.file(format: 0, tracks: [goodTrack])
        let error = failure(Array(bytes.dropLast(5)))  // inside the note-on
        #expect(error?.byteOffset == 14)  // the MTrk chunk header, whose length runs past the end
        #expect(error?.description.contains("truncated") == true)
    }

    @Test func missingTracks() {
        let error = failure(SMFBuilder.file(format: 1, tracks: [goodTrack], declaredTracks: 3))
        #expect(error?.description.contains("declares 3 tracks") == true)
    }

    @Test func variableLengthQuantityLongerThanFourBytes() {
        let track: [UInt8] = [0x81, 0x81, 0x81, 0x81, 0x01, 0x90, 60, 100] + SMFBuilder.endOfTrack
        let error = failure(SMFBuilder.file(format: 0, tracks: [track]))
        #expect(error?.byteOffset == 22)  // first byte of the track data
        #expect(error?.description.contains("byte offset 22") == true)
    }

    @Test func eventPastTheEndOfItsChunk() {
        // Note-on with one data byte, then the chunk ends (another track follows, so the file does not).
        let error = failure(SMFBuilder.file(format: 1, tracks: [[0x00, 0x90, 60], goodTrack]))
        #expect(error?.byteOffset == 25)
        #expect(error?.reason.contains("past the end of track 0") == true)
    }

    @Test func metaLengthPastTheEndOfItsChunk() {
        let error = failure(SMFBuilder.file(format: 0, tracks: [[0x00, 0xFF, 0x03, 0x40, 0x41]]))
        #expect(error?.byteOffset == 26)
    }

    @Test func dataByteWithoutRunningStatus() {
        let error = failure(SMFBuilder.file(format: 0, tracks: [[0x00, 60, 100] + SMFBuilder.endOfTrack]))
        #expect(error?.byteOffset == 23)
        #expect(error?.reason.contains("running status") == true)
    }

    @Test func statusByteWhereDataBelongs() {
        let error = failure(SMFBuilder.file(format: 0, tracks: [[0x00, 0x90, 60, 0x90, 0x00] + SMFBuilder.endOfTrack]))
        #expect(error?.byteOffset == 25)
    }

    @Test func missingFileNamesThePath() {
        #expect {
            _ = try MIDIFile.read(path: "/nonexistent/song.mid")
        } throws: { error in
            (error as? MIDIFileError)?.description.hasPrefix("/nonexistent/song.mid: ") == true
        }
    }

    @Test func everyTruncationOfAValidFileThrowsOrParsesWithoutCrashing() {
        let bytes = SMFBuilder.file(format: 0, tracks: [goodTrack + goodTrack])
        for length in 0..<bytes.count {
            _ = try? MIDIFile.parse(Array(bytes.prefix(length)))
        }
        #expect(failure(Array(bytes.prefix(13))) != nil)
    }
}
