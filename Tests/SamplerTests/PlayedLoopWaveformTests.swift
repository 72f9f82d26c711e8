import AudioTestSupport
import DSP
import Sampler
import Testing

/// A waveform stored in its played form (`SamplerWaveform(playedLoop:)`, what the SoundFont loader
/// makes of a sample only ever looped until the voice ends) holds the frames once, yet plays
/// sample for sample as the plain waveform with the same loop, whose region makes a looped copy.
@Suite("SoundFont played-loop waveforms")
struct PlayedLoopWaveformTests {
    static let loop = SamplerLoop(startFrame: 300, endFrame: 1_000)
    /// 1500 frames of deterministic noise (−0.5…0.5); frames past the loop end differ from the loop.
    static let frames: [Float] = congruentialNoise(count: 1_500, seed: 12_345).map { Float($0) / 4_294_967_296 }

    /// Both channels of a note on key `key` (root 60) held for 12 000 frames, many passes of the loop.
    func held(_ waveform: SamplerWaveform, key: Int, levels: Bool) throws -> [Float] {
        let program = try soundFontProgram([soundFontZone(waveform, rootKey: 60, loop: Self.loop)])
        if levels { program.buildAllLevels() }
        let out = render(soundFontInstrument(program), frames: 12_000, events: [At(1, noteOn(key, 100))])
        return out.left + out.right
    }

    @Test(arguments: [(60, false), (67, false), (67, true), (55, true)])
    func playsAsThePlainWaveformWithTheLoop(key: Int, levels: Bool) throws {
        let plain = try SamplerWaveform(channels: [Self.frames], sampleRate: soundFontTestRate)
        let played = try SamplerWaveform(channels: [Array(Self.frames.prefix(Self.loop.endFrame))], sampleRate: soundFontTestRate, playedLoop: Self.loop)
        let expected = try held(plain, key: key, levels: levels)
        #expect(expected.contains { abs($0) > 0.01 })  // the note sounds
        #expect(try held(played, key: key, levels: levels) == expected)
    }

    @Test func aPlayedLoopMustEndAtTheLastFrame() {
        #expect(throws: SamplerProgramError.self) {
            try SamplerWaveform(channels: [Self.frames], sampleRate: soundFontTestRate, playedLoop: Self.loop)
        }
    }
}
