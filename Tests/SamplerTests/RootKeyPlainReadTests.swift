#if canImport(Glibc)
import Glibc
#endif
import AudioTestSupport
import DSP
import Sampler
import Testing

/// A note at its root key, its sample at the output's rate, plays one frame per output frame at a
/// whole phase: the voice (SoundFont or AUSampler) reads the frames as they are (`plainRegion`)
/// instead of its band-limited levels, which is what every kernel returns there (the 4-point
/// cubic's weights at a whole phase are (0, 1, 0, 0)). So the note is the sample's frames × its
/// gain, looped or not, mono or stereo; and bent away from the root mid-note, it goes on in its
/// levels without a step.
@Suite struct RootKeyPlainReadTests {
    static let loop = SamplerLoop(startFrame: 300, endFrame: 1_000)
    static let points: [Int16] = congruentialNoise(count: 1_500, seed: 2_468).map { Int16(truncatingIfNeeded: $0 >> 17) }

    func held(_ waveform: SamplerWaveform, loop: SamplerLoop?, levels: Bool, events: [At] = []) throws -> Rendered {
        let program = try soundFontProgram([soundFontZone(waveform, rootKey: 60, loop: loop)])
        if levels { program.buildAllLevels() }
        return render(soundFontInstrument(program), frames: 6_000, events: [At(1, noteOn(60, 100))] + events)
    }

    /// Key 60 held from frame 1 on a program of one zone (a SoundFont one, or an AUSampler one at
    /// the AUSampler tests' rate), its levels built.
    func heldAtTheRoot(_ channels: [[Int16]], loop: SamplerLoop?, soundFont: Bool) throws -> Rendered {
        let frames = 6_000
        if soundFont {
            let waveform = try SamplerWaveform(pcm16: channels, sampleRate: soundFontTestRate)
            return try held(waveform, loop: loop, levels: true)
        }
        let waveform = try SamplerWaveform(
            channels: channels.map { $0.map { Float($0) / 32_768 } }, sampleRate: testSampleRate, naturalLoop: loop)
        var zone = SamplerZone(waveform: waveform, rootKey: 60)
        zone.loop = loop
        let program = try SamplerProgram(layers: [plainLayer()], zones: [zone])
        return render(instrument(playing: program), frames: frames, events: [At(1, noteOn(60, 100))])
    }

    /// The frames themselves, not the levels' approximation of them (16-bit, band-limited: ~1e-5
    /// off), looped or not, mono or stereo: the note of a noise sample is, frame by frame, the
    /// sample × the gain the same note has on a constant-½ sample (× 2).
    @Test(arguments: [true, false], [false, true])
    func atTheRootAVoicePlaysTheFramesThemselves(soundFont: Bool, stereo: Bool) throws {
        let channels = stereo ? [Self.points, Self.points.reversed()] : [Self.points]
        let halves = channels.map { [Int16](repeating: 16_384, count: $0.count) }
        for loop in [nil, Self.loop] {
            let noise = try heldAtTheRoot(channels, loop: loop, soundFont: soundFont)
            let gain = try heldAtTheRoot(halves, loop: loop, soundFont: soundFont)
            var checked = 0
            for i in 1..<noise.left.count {
                var k = i - 1
                if let loop, k >= loop.endFrame { k = loop.startFrame + (k - loop.startFrame) % (loop.endFrame - loop.startFrame) }
                guard k < Self.points.count else { continue }
                for (out, half, points) in [(noise.left, gain.left, channels[0]), (noise.right, gain.right, channels[channels.count - 1])] {
                    let g = 2 * half[i]
                    guard abs(g) > 1e-3 else { continue }
                    let expected = Float(points[k]) / 32_768 * g
                    #expect(abs(out[i] - expected) <= 1e-6 * abs(g), "frame \(i): \(out[i]), frame \(k) of the sample × gain: \(expected)")
                    checked += 1
                }
            }
            #expect(checked > 2_000)
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
