import AudioFiles
import AudioTestSupport
import Testing

@Suite struct SampleRateConversionTests {
    /// SRC_SINC_BEST_QUALITY is transparent: measured pitch error is ≈ 0.001 cent, level error ≈ 0.001 dB.
    let pitchToleranceCents = 0.1
    let levelToleranceDecibels = 0.1

    @Test func sineKeepsFrequencyAndLevelFrom44kTo48k() throws {
        let input = Measure.sine(frequency: 1000, sampleRate: 44_100, count: 44_100, amplitude: 0.5)
        let output = try SampleRateConverter.convert([input], from: 44_100, to: 48_000)[0]
        #expect(output.count == 48_000)
        let middle = output[4000..<44_000]  // away from the filter's start and end transients
        let frequency = try #require(Measure.frequency(middle, sampleRate: 48_000, guess: 1000))
        #expect(abs(Measure.cents(frequency, relativeTo: 1000)) < pitchToleranceCents)
        let level = Measure.decibels(Measure.amplitude(middle, at: 1000, sampleRate: 48_000))
        #expect(abs(level - Measure.decibels(0.5)) < levelToleranceDecibels)
    }

    @Test func readConvertingScalesLoopsAndKeepsChannelsAligned() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("loop44.wav")
        let left = Measure.sine(frequency: 500, sampleRate: 44_100, count: 44_100)
        let right = Measure.sine(frequency: 500, sampleRate: 44_100, count: 44_100, amplitude: 0.25)
        try WAVFileWriter.write(
            path: path, channels: [left, right], sampleRate: 44_100, encoding: .float32,
            loops: [SampleLoop(startFrame: 4410, endFrame: 44_100)], rootKey: 60)
        let audio = try AudioFileReader.read(path: path, convertingTo: 48_000)
        #expect(audio.sampleRate == 48_000)
        #expect(audio.frameCount == 48_000)
        #expect(audio.channels.allSatisfy { $0.count == 48_000 })
        #expect(audio.metadata.loops == [SampleLoop(startFrame: 4800, endFrame: 48_000)])
        #expect(audio.metadata.rootKey == 60)
        // Same content in both channels at a 4:1 level ratio means they were converted alike.
        let ratio = Measure.rms(audio.channels[0][1000..<47_000]) / Measure.rms(audio.channels[1][1000..<47_000])
        #expect(abs(ratio - 2) < 1e-3)
    }

    @Test func sameRateReturnsInputUntouched() throws {
        let input: [[Float]] = [[0.1, 0.2, 0.3]]
        #expect(try SampleRateConverter.convert(input, from: 48_000, to: 48_000) == input)
    }
}
