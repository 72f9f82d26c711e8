import AudioTestSupport
import AudioFiles
import Testing

@Suite struct AudioFileErrorTests {
    @Test func missingFileNamesPathAndReason() {
        let path = "/nonexistent/dir/no-such-file.wav"
        #expect {
            _ = try AudioFileReader.read(path: path)
        } throws: { error in
            guard let error = error as? AudioFileError else { return false }
            return error.path == path && error.description.contains(path) && !error.reason.isEmpty
        }
    }

    @Test(arguments: [
        Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEjunk".utf8),  // header claims nothing, no fmt chunk
        Array("FORM\u{0}\u{0}\u{0}\u{4}AIFF".utf8),  // AIFF without COMM
        Array("caff\u{0}\u{1}\u{0}\u{0}".utf8),  // CAF without desc
        [UInt8](repeating: 0x5A, count: 500),  // not audio at all
        [UInt8](),  // empty file
    ])
    func corruptFilesThrowInsteadOfCrashing(bytes: [UInt8]) {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("corrupt.bin")
        writeBytes(bytes, to: path)
        #expect(throws: AudioFileError.self) { _ = try AudioFileReader.read(path: path) }
    }

    @Test func truncatedWavIsReportedNotPlayedShort() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("full.wav")
        try WAVFileWriter.write(path: path, channels: [[Float](repeating: 0.5, count: 1000)], sampleRate: 8000, encoding: .pcm16)
        let cut = dir.file("cut.wav")
        writeBytes(Array(readBytes(path).prefix(44 + 600)), to: cut)
        // libsndfile would quietly play the 300 frames that exist; the reader says the file is cut.
        #expect(throws: AudioFileError(
            path: cut, reason: "truncated: the audio chunk declares 2000 bytes but the file holds 600 (300 frames decodable); re-export or repair the file"
        )) { _ = try AudioFileReader.read(path: cut) }
    }

    @Test func converterRejectsBadRates() {
        #expect(throws: AudioFileError.self) { _ = try SampleRateConverter.convert([[0, 1]], from: 0, to: 48_000) }
        #expect(throws: AudioFileError.self) { _ = try SampleRateConverter.convert([[0, 1]], from: 1, to: 48_000) }
    }
}
