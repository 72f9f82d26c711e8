import AudioTestSupport
import Sampler
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A harmonic tone with an attack part and a sustain loop; played transposed (non-integer step)
/// for hundreds of loop wraps, the output must show no step at the seams.
@Suite struct LoopSeamTests {
    /// Period of the recorded tone in frames (240 Hz at 48 kHz).
    let period = 200

    func tone(frames: Int, periodFrames: Double) -> [Float] {
        (0..<frames).map { n in
            let phase = 2 * Double.pi * Double(n) / periodFrames
            return Float(0.4 * sin(phase) + 0.15 * sin(2 * phase + 0.3) + 0.08 * sin(3 * phase + 1.1))
        }
    }

    func playLooped(samples: [Float], loop: SamplerLoop, quality: InterpolationQuality) throws -> [Float] {
        let waveform = try SamplerWaveform(channels: [samples], sampleRate: testSampleRate)
        var zone = SamplerZone(waveform: waveform, rootKey: 60)
        zone.loop = loop
        let sampler = instrument(playing: try SamplerProgram(layers: [plainLayer()], zones: [zone]), quality: quality)
        // +5 semitones: step 1.3348 frames, so wraps land at every fractional position.
        let out = render(sampler, frames: 96_000, events: [At(0, noteOn(65))])
        return Array(out.left[2_400...])
    }

    @Test(arguments: [InterpolationQuality.realtime, .high])
    func periodicLoopHasNoSeam(quality: InterpolationQuality) throws {
        let samples = tone(frames: 3_000, periodFrames: Double(period))
        // 4 whole periods starting after the attack: ~800 wraps in 2 s.
        let loop = SamplerLoop(startFrame: 1_000, endFrame: 1_000 + 4 * period)
        let out = try playLooped(samples: samples, loop: loop, quality: quality)
        Measure.expectNoClick(out)
        #expect(Measure.peak(out) > 0.3)
    }

    /// The same measurement catches a badly cut loop (half a period short), so it can fail.
    @Test func brokenLoopIsDetected() throws {
        let samples = tone(frames: 3_000, periodFrames: Double(period))
        let loop = SamplerLoop(startFrame: 1_000, endFrame: 1_000 + 4 * period - period / 2)
        let out = try playLooped(samples: samples, loop: loop, quality: .realtime)
        #expect(Measure.maxDiscontinuity(out) > 0.01)
    }

    @Test func builtInSineLoopsCleanlyAtTheKeyboardExtremes() throws {
        for key in [21, 108] {
            let program = SamplerProgram.single(.sineCycle(frequencyHz: 440), rootKey: 69, layer: plainLayer())
            let out = render(instrument(playing: program), frames: 48_000, events: [At(0, noteOn(key))])
            let expectedStep = 0.5.squareRoot() * pow(2 * Double.pi * Measure.noteFrequency(Double(key)) / testSampleRate, 3)
            // A clean sine's third difference is A·ω³; allow 10 % + 1e-4 for interpolation error.
            Measure.expectNoClick(Array(out.left[2_400...]), maxStep: expectedStep * 1.1 + 1e-4)
        }
    }
}
