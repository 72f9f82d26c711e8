import AudioFiles
import AudioTestSupport
import Testing

@Suite struct AIFFWriterTests {
    @Test(arguments: [16, 24])
    func libsndfileReadsBackRootKeyLoopAndSamples(bitDepth: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("lead.aif")
        let tone = Measure.sine(frequency: 261.6, sampleRate: 44_100, count: 44_100, amplitude: 0.8)
        let loop = SampleLoop(startFrame: 11_025, endFrame: 40_000)
        try AIFFWriter.write(path: path, channels: [tone], sampleRate: 44_100, bitDepth: bitDepth, rootKey: 60, sustainLoop: loop)
        let audio = try AudioFileReader.read(path: path)
        #expect(audio.sampleRate == 44_100)
        #expect(audio.frameCount == 44_100)
        #expect(audio.metadata.rootKey == 60)
        #expect(audio.metadata.loops == [loop])
        #expect(audio.metadata.keyRange == 0...127)
        #expect(audio.metadata.velocityRange == 1...127)
        #expect(audio.formatDescription == "AIFF PCM \(bitDepth)-bit, 44100 Hz, mono")
        let step = 1.0 / Double((1 << (bitDepth - 1)) - 1)
        let worst = zip(tone, audio.channels[0]).map { abs(Double($0) - Double($1)) }.max() ?? 1
        // Half a step of rounding plus up to one step from writing with 2^(n−1)−1 and reading with 2^(n−1).
        #expect(worst <= 1.5 * step)
    }

    @Test func stereoWithoutMetadataAndOddRate() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("plain.aiff")
        let left: [Float] = [0, 0.5, -0.5, 1]
        let right: [Float] = [0.25, -0.25, 0, -1]
        try AIFFWriter.write(path: path, channels: [left, right], sampleRate: 22_050, bitDepth: 16, rootKey: nil, sustainLoop: nil)
        let audio = try AudioFileReader.read(path: path)
        #expect(audio.sampleRate == 22_050)
        #expect(audio.channels.count == 2)
        #expect(audio.metadata.loops.isEmpty)
        #expect(audio.metadata.rootKey == nil)
        for (written, read) in zip([left, right], audio.channels) {
            #expect(zip(written, read).allSatisfy { abs($0 - $1) <= 1.0 / 32767 })
        }
    }

    @Test func instDetuneIsReadAsSignedPlaybackCorrection() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("detuned.aif")
        try AIFFWriter.write(path: path, channels: [[Float](repeating: 0.1, count: 100)], sampleRate: 44_100, rootKey: 67, sustainLoop: nil)
        var bytes = readBytes(path)
        let inst = try #require((0..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == Array("INST".utf8) })
        bytes[inst + 8 + 1] = UInt8(bitPattern: -7)  // detune byte follows the base note
        writeBytes(bytes, to: path)
        let audio = try AudioFileReader.read(path: path)
        #expect(audio.metadata.rootKey == 67)
        #expect(audio.metadata.fineTuneCents == -7)
        #expect(audio.metadata.loops.isEmpty)
    }

    @Test func rejectsLoopOutsideTheSample() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        #expect(throws: AudioFileError.self) {
            try AIFFWriter.write(
                path: dir.file("bad.aif"), channels: [[0, 0, 0]], sampleRate: 44_100, rootKey: 60,
                sustainLoop: SampleLoop(startFrame: 1, endFrame: 4))
        }
    }
}
