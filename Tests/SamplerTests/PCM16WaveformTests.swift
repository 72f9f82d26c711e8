import AudioTestSupport
import DSP
import Sampler
import Testing

/// A waveform of 16-bit points (`SamplerWaveform(pcm16:)`, what the SoundFont loader makes of a
/// 16-bit sample) holds half the bytes of the Float one. Plain (the 4-point cubic reads the
/// points), it plays sample for sample as the Float waveform of the same values, looped through a
/// copy or in its played form; band-limited, its levels are stored as 16-bit integers too (half
/// the bytes again) and play within their quantisation noise of the Float levels, 90 dB down.
@Suite("16-bit waveforms")
struct PCM16WaveformTests {
    static let loop = SamplerLoop(startFrame: 300, endFrame: 1_000)
    /// 1500 frames of deterministic 16-bit noise, and the same as Float (× 2⁻¹⁵).
    static let points: [Int16] = congruentialNoise(count: 1_500, seed: 54_321).map { Int16(truncatingIfNeeded: $0 >> 17) }
    static let floats = points.map { Float($0) / 32_768 }

    func held(_ waveform: SamplerWaveform, key: Int, loop: SamplerLoop?, levels: Bool) throws -> [Float] {
        let program = try soundFontProgram([soundFontZone(waveform, rootKey: 60, loop: loop)])
        if levels { program.buildAllLevels() }
        let out = render(soundFontInstrument(program), frames: 6_000, events: [At(1, noteOn(key, 100))])
        return out.left + out.right
    }

    /// Plain: identical. Band-limited: the difference's RMS at least 90 dB under the note's.
    func expectSame(_ output: [Float], as expected: [Float], levels: Bool) {
        guard levels else { return #expect(output == expected) }
        func rms(_ x: [Float]) -> Double { (x.reduce(0) { $0 + Double($1) * Double($1) } / Double(x.count)).squareRoot() }
        let difference = zip(output, expected).map { $0 - $1 }
        #expect(output.count == expected.count && Decibels.fromGain(rms(difference) / rms(expected)) < -90)
    }

    @Test(arguments: [(60, false), (67, false), (67, true), (55, true)])
    func playsAsTheFloatWaveform(key: Int, levels: Bool) throws {
        for loop in [nil, Self.loop] {
            let float = try SamplerWaveform(channels: [Self.floats, Self.floats.reversed()], sampleRate: soundFontTestRate)
            let pcm16 = try SamplerWaveform(pcm16: [Self.points, Self.points.reversed()], sampleRate: soundFontTestRate)
            #expect(pcm16.byteCount * 2 == float.byteCount)
            let expected = try held(float, key: key, loop: loop, levels: levels)
            #expect(expected.contains { abs($0) > 0.01 })  // the note sounds
            expectSame(try held(pcm16, key: key, loop: loop, levels: levels), as: expected, levels: levels)
        }
    }

    @Test(arguments: [false, true])
    func playsInItsPlayedFormAsTheFloatWaveform(levels: Bool) throws {
        let float = try SamplerWaveform(channels: [Self.floats], sampleRate: soundFontTestRate)
        let played = try SamplerWaveform(
            pcm16: [Array(Self.points.prefix(Self.loop.endFrame))], sampleRate: soundFontTestRate, playedLoop: Self.loop)
        let expected = try held(float, key: 64, loop: Self.loop, levels: levels)
        expectSame(try held(played, key: 64, loop: Self.loop, levels: levels), as: expected, levels: levels)
    }

    @Test func itsLevelsTakeHalfTheBytesOfFloatLevels() throws {
        var bytes: [Int] = []
        for waveform in [try SamplerWaveform(channels: [Self.floats], sampleRate: soundFontTestRate), try SamplerWaveform(pcm16: [Self.points], sampleRate: soundFontTestRate)] {
            let program = try soundFontProgram([soundFontZone(waveform, rootKey: 60)])
            program.buildAllLevels()
            let levels = try #require(program.publishedLevels.first?.levels)
            #expect(levels.bytesPerSample == waveform.bytesPerFrame)
            bytes.append(levels.byteCount)
        }
        #expect(bytes[1] * 2 == bytes[0])
    }

    @Test func readsBackTheSameValues() throws {
        let pcm16 = try SamplerWaveform(pcm16: [Self.points], sampleRate: soundFontTestRate)
        #expect(pcm16.channel(0) == Self.floats)
    }
}
