import AudioFiles
import AudioTestSupport
import Testing

@Suite struct WAVRoundTripTests {
    let sampleRate = 48_000

    @Test(arguments: [(WAVEncoding.float32, 0.0), (.pcm16, 1.0 / 32767), (.pcm24, 1.0 / 8_388_607)])
    func stereoRoundTrip(encoding: WAVEncoding, quantizationStep: Double) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let left = Measure.sine(frequency: 440, sampleRate: Double(sampleRate), count: 4800, amplitude: 0.7)
        // Measure.noise spans −a…3a (its 24-bit value is divided by 2^23), so a = 0.25 stays within ±1.
        let right = Measure.noise(count: 4800, amplitude: 0.25, seed: 7)
        let path = dir.file("round.wav")
        try WAVFileWriter.write(path: path, channels: [left, right], sampleRate: sampleRate, encoding: encoding)
        let audio = try AudioFileReader.read(path: path)
        #expect(audio.sampleRate == Double(sampleRate))
        #expect(audio.frameCount == 4800)
        #expect(audio.channels.count == 2)
        // Rounding to the nearest code: error at most half a step, plus libsndfile's 32767 vs 32768 scaling.
        let tolerance = quantizationStep * 1.01 + 1e-7
        for (written, read) in zip([left, right], audio.channels) {
            let worst = zip(written, read).map { abs(Double($0) - Double($1)) }.max() ?? 1
            #expect(worst <= tolerance)
        }
    }

    @Test func formatDescriptionNamesContainerEncodingRateAndChannels() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("mono.wav")
        try WAVFileWriter.write(path: path, channels: [[0, 0.5, -0.5]], sampleRate: 44_100, encoding: .pcm24)
        #expect(try AudioFileReader.read(path: path).formatDescription == "WAV PCM 24-bit, 44100 Hz, mono")
    }

    @Test func streamingWriterInterleavesBlocksInOrder() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("stream.wav")
        let writer = try WAVFileWriter(path: path, sampleRate: sampleRate, channels: 2, encoding: .float32)
        let left: [Float] = (0..<300).map { Float($0) / 300 }
        let right: [Float] = left.map { -$0 }
        for start in stride(from: 0, to: 300, by: 128) {
            let count = min(128, 300 - start)
            try left[start...].withUnsafeBufferPointer { l in
                try right[start...].withUnsafeBufferPointer { r in
                    try writer.write(left: l.baseAddress!, right: r.baseAddress!, frames: count)
                }
            }
        }
        writer.close()
        let audio = try AudioFileReader.read(path: path)
        #expect(audio.channels == [left, right])
    }

    @Test func smplChunkRoundTripsRootKeyAndExclusiveLoopEnd() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("looped.wav")
        let loop = SampleLoop(startFrame: 1000, endFrame: 3000)
        try WAVFileWriter.write(
            path: path, channels: [[Float](repeating: 0.1, count: 4000)], sampleRate: sampleRate, encoding: .pcm16,
            loops: [loop], rootKey: 64)
        let audio = try AudioFileReader.read(path: path)
        #expect(audio.metadata.rootKey == 64)
        #expect(audio.metadata.loops == [loop])
        #expect(audio.metadata.keyRange == nil)  // WAV smpl carries no key range
        // On disk, smpl's dwEnd is the last looped sample (inclusive): 2999.
        #expect(smplLoopEnd(readBytes(path)) == 2999)
    }

    @Test func wavWithoutSmplHasNoMetadata() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("plain.wav")
        try WAVFileWriter.write(path: path, channels: [[0.25, 0.5]], sampleRate: sampleRate, encoding: .float32)
        #expect(try AudioFileReader.read(path: path).metadata == SampleMetadata())
    }

    /// dwEnd of the first loop in a RIFF smpl chunk: 36 bytes of header, then loops of 24 bytes
    /// (id, type, start, end, fraction, count).
    private func smplLoopEnd(_ bytes: [UInt8]) -> UInt32? {
        guard let start = (0..<(bytes.count - 4)).first(where: { Array(bytes[$0..<$0 + 4]) == Array("smpl".utf8) }) else {
            return nil
        }
        let field = start + 8 + 36 + 12
        return (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[field + $1]) << (8 * UInt32($1)) }
    }
}
