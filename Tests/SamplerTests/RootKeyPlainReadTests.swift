#if canImport(Glibc)
import Glibc
#endif
import AudioTestSupport
import DSP
import Sampler
import Testing

/// A SoundFont note at its root key, its sample at the output's rate, plays one frame per output
/// frame at a whole phase: the voice reads the frames as they are (`plainRegion`) instead of its
/// band-limited levels, which every kernel would return there anyway. So the note is sample for
/// sample the plain form's (read with the 4-point cubic, whose weights at a whole phase are
/// (0, 1, 0, 0)), looped or not, mono or stereo; and bent away from the root mid-note, it goes on
/// in its levels without a step.
@Suite struct RootKeyPlainReadTests {
    static let loop = SamplerLoop(startFrame: 300, endFrame: 1_000)
    static let points: [Int16] = congruentialNoise(count: 1_500, seed: 2_468).map { Int16(truncatingIfNeeded: $0 >> 17) }

    func held(_ waveform: SamplerWaveform, loop: SamplerLoop?, levels: Bool, events: [At] = []) throws -> Rendered {
        let program = try soundFontProgram([soundFontZone(waveform, rootKey: 60, loop: loop)])
        if levels { program.buildAllLevels() }
        return render(soundFontInstrument(program), frames: 6_000, events: [At(1, noteOn(60, 100))] + events)
    }

    @Test(arguments: [false, true])
    func atTheRootTheLevelsPlayTheFramesThemselves(stereo: Bool) throws {
        let channels = stereo ? [Self.points, Self.points.reversed()] : [Self.points]
        let waveform = try SamplerWaveform(pcm16: channels, sampleRate: soundFontTestRate)
        for loop in [nil, Self.loop] {
            let plain = try held(waveform, loop: loop, levels: false)
            let banded = try held(waveform, loop: loop, levels: true)
            #expect(plain.left.contains { abs($0) > 0.01 })  // the note sounds
            #expect(banded.left == plain.left && banded.right == plain.right)
        }
    }

    /// A 441 Hz sine bent up 50 cents at frame 3000: the largest step between frames stays that
    /// of the sine itself (the levels' value at a whole phase is the frame within their 16-bit
    /// quantisation), so the change of reading makes no click.
    @Test func bentAwayFromTheRootItGoesOnWithoutAStep() throws {
        let cycle = (0..<100).map { Int16(20_000 * sin(2 * Double.pi * Double($0) / 100)) }
        let waveform = try SamplerWaveform(pcm16: [cycle], sampleRate: soundFontTestRate)
        let bent = try held(
            waveform, loop: SamplerLoop(startFrame: 0, endFrame: 100), levels: true,
            events: [At(3_000, .pitchBend(channel: 0, value: 2_048))])
        let steps = zip(bent.left.dropFirst(), bent.left).map { abs($0 - $1) }
        let around = steps[2_900..<3_100].max() ?? 0, before = steps[2_000..<2_900].max() ?? 0
        #expect(before > 0.001)
        #expect(around < 1.05 * before, "step \(around) around the bend, \(before) before it")
    }
}
