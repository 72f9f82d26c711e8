import AudioFiles
import AudioTestSupport
import Testing

@Suite struct SampleRateConversionTests {
    /// SRC_SINC_BEST_QUALITY is transparent: measured pitch error is ≈ 0.001 cent, level error ≈ 0.001 dB.
    let pitchToleranceCents = 0.1
    let levelToleranceDecibels = 0.1

    @Test(arguments: [ConversionQuality.best, .medium, .fastest])
    func sineKeepsFrequencyAndLevelFrom44kTo48k(quality: ConversionQuality) throws {
        let input = Measure.sine(frequency: 1000, sampleRate: 44_100, count: 44_100, amplitude: 0.5)
        let output = try SampleRateConverter.convert([input], from: 44_100, to: 48_000, quality: quality)[0]
        #expect(output.count == 48_000)
        let middle = output[4000..<44_000]  // away from the filter's start and end transients
        let frequency = try #require(Measure.frequency(middle, sampleRate: 48_000, guess: 1000))
        #expect(abs(Measure.cents(frequency, relativeTo: 1000)) < pitchToleranceCents)
        let level = Measure.decibels(Measure.amplitude(middle, at: 1000, sampleRate: 48_000))
        #expect(abs(level - Measure.decibels(0.5)) < levelToleranceDecibels)
    }

    /// SRC_SINC_BEST_QUALITY's stop band is specified at 97 dB; a 23 kHz tone has no place below
    /// 44.1 kHz's 22.05 kHz Nyquist and must not alias back (it would land at 21.1 kHz).
    @Test func downsamplingRemovesContentAboveTheNewNyquist() throws {
        let input = Measure.sine(frequency: 23_000, sampleRate: 48_000, count: 48_000, amplitude: 0.5)
        let output = try SampleRateConverter.convert([input], from: 48_000, to: 44_100)[0]
        let middle = output[4000..<40_000]
        #expect(Measure.decibels(Measure.rms(middle)) < -90)
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
