import AudioFiles
import AudioTestSupport
import Testing

@Suite struct SampleRateConversionTests {
    /// Both recipes are transparent for a tone: pitch error ≪ 0.01 cent, level error ≪ 0.01 dB.
    let pitchToleranceCents = 0.1
    let levelToleranceDecibels = 0.1

    @Test(arguments: [ConversionQuality.veryHigh, .high])
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

    /// A 23 kHz tone has no place below
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

    /// The guitar loop (44.1 kHz, the whole file loops) converted to 48 kHz as a periodic signal:
    /// the wrap is no rougher than any step inside.
    @Test func wholeFileLoopStaysSeamlessAfterConversion() throws {
        let path = BundledSoundsTests.soundsDirectory + "/guitar.wav"
        let looped = try AudioFileReader.read(path: path, convertingTo: 48_000, wholeFileLoops: true)
        #expect(looped.frameCount == 192_000)
        for channel in looped.channels {
            let wrap = Array(channel[(192_000 - 8)...] + channel[..<8])
            #expect(Measure.maxDiscontinuity(wrap) <= Measure.maxDiscontinuity(channel))
            #expect(Measure.rms(channel) > 0.05)
        }
    }

    /// A loop of exactly 441 cycles of a 441 Hz cosine: converted as a periodic signal, the 2000 frames
    /// either side of the wrap are still a pure sine (what remains is at float precision);
    /// converted as a one-off signal, the filter rings against the silence assumed beyond each end.
    @Test func periodicConversionKeepsTheWrapOfAPureLoopPure() throws {
        let period = Measure.sine(frequency: 441, sampleRate: 44_100, count: 44_100, phase: Double.pi / 2)
        func wrapResidualDecibels(periodic: Bool) throws -> Double {
            let x = try SampleRateConverter.convert([period], from: 44_100, to: 48_000, periodic: periodic)[0]
            #expect(x.count == 48_000)
            let wrap = x[46_000...] + x[..<2000]
            let fit = SineFit(wrap, frequencies: [441], sampleRate: 48_000)
            #expect(abs(Measure.decibels(fit.amplitudes[0] / 0.5)) < 0.5)
            return Measure.decibels(fit.residualRMS / 0.5)
        }
        #expect(try wrapResidualDecibels(periodic: true) < -140)  // measured −154.6 dB
        #expect(try wrapResidualDecibels(periodic: false) > -60)  // measured −52 dB
    }

    @Test func sameRateReturnsInputUntouched() throws {
        let input: [[Float]] = [[0.1, 0.2, 0.3]]
        #expect(try SampleRateConverter.convert(input, from: 48_000, to: 48_000) == input)
    }
}
