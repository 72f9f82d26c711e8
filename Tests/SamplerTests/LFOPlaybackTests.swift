import AudioTestSupport
import DSP
import MIDI
import Sampler
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The layer LFO measured on the rendered output: its shape, period and delay through the level
/// (a constant waveform makes the output exactly gain × envelope), and its pull on cutoff and pan.
@Suite struct LFOPlaybackTests {
    /// 3.7 Hz: a period of 12,972.97 frames, so the shapes' edges never fall exactly on a chunk
    /// end (where float rounding of the phase would decide which side of a jump is sampled).
    static let rateHz = 3.7
    static let delaySeconds = 0.25
    static let depthDecibels = 6.0
    /// The voice reads its LFO once per 64-frame chunk and ramps the gain to it: the last frame of
    /// each chunk carries the LFO value exactly.
    static let chunk = SamplerInstrument.chunkFrames

    /// The output of a constant waveform under an LFO → gain of `depthDecibels`.
    func tremolo(_ waveform: LowFrequencyOscillator.Waveform, frames: Int) throws -> [Float] {
        var layer = plainLayer()
        layer.lfo = SamplerLFO(
            oscillator: .init(waveform: waveform, rateHz: Self.rateHz, delaySeconds: Self.delaySeconds),
            gain: SamplerLFODepth(amount: Self.depthDecibels))
        let program = SamplerProgram.single(try constantWaveform(), rootKey: 60, layer: layer)
        return render(instrument(playing: program), frames: frames, events: [At(0, noteOn(60))]).left
    }

    /// The LFO value (−1…1) the output's level says at frame `index`.
    func lfoValue(_ output: [Float], at index: Int) -> Double {
        Measure.decibels(Double(output[index] / centrePanGain)) / Self.depthDecibels
    }

    /// The reference: the DSP oscillator's shape at the phase reached `frames` after the delay.
    func expected(_ waveform: LowFrequencyOscillator.Waveform, afterDelayFrames frames: Int) -> Double {
        var reference = LowFrequencyOscillator(sampleRate: testSampleRate, settings: .init(waveform: waveform, rateHz: Self.rateHz))
        reference.skip(frames: frames)
        return Double(reference.current)
    }

    @Test(arguments: [LowFrequencyOscillator.Waveform.sine, .triangle, .square, .sawUp, .sawDown])
    func levelFollowsTheShapeAfterTheDelay(waveform: LowFrequencyOscillator.Waveform) throws {
        let frames = 4 * 48_000
        let out = try tremolo(waveform, frames: frames)
        let delayFrames = Int(Self.delaySeconds * testSampleRate)
        // Nothing before the delay (to chunk resolution: the chunk that holds the LFO's first
        // frame ramps toward it): the plain note's level, to the last bit of a Float.
        let before = out[2_400..<(delayFrames - Self.chunk)]
        #expect(before.allSatisfy { abs($0 - centrePanGain) < 1e-6 })
        // After it, the shape, chunk by chunk (within 0.01 of full swing: 0.06 dB).
        var worst = 0.0
        let firstEnd = (delayFrames / Self.chunk + 1) * Self.chunk
        for end in stride(from: firstEnd, to: frames, by: Self.chunk) {
            let error = abs(lfoValue(out, at: end - 1) - expected(waveform, afterDelayFrames: end - delayFrames))
            worst = max(worst, error)
        }
        #expect(worst < 0.01, "\(waveform): worst deviation \(worst)")
        // The swing is really there (silence or a constant would pass the comparison above only
        // if the reference were flat too).
        let values = stride(from: firstEnd, to: frames, by: Self.chunk).map { lfoValue(out, at: $0 - 1) }
        #expect(values.max()! > 0.95 && values.min()! < -0.95)
    }

    /// Period from the output alone: upward crossings of the mid level over 15 cycles.
    @Test(arguments: [LowFrequencyOscillator.Waveform.sine, .triangle, .square, .sawUp, .sawDown])
    func periodMatchesTheRate(waveform: LowFrequencyOscillator.Waveform) throws {
        let frames = 5 * 48_000
        let out = try tremolo(waveform, frames: frames)
        let delayFrames = Int(Self.delaySeconds * testSampleRate)
        // Saws cross the middle once per cycle going one way: count the crossings in its direction.
        let rising = waveform != .sawDown
        var crossings: [Double] = []
        var previous = lfoValue(out, at: delayFrames + 10)
        for index in (delayFrames + 11)..<frames {
            let value = lfoValue(out, at: index)
            let crosses = rising ? (previous < 0 && value >= 0) : (previous > 0 && value <= 0)
            if crosses { crossings.append(Double(index - 1) + previous / (previous - value)) }
            previous = value
        }
        #expect(crossings.count >= 15)
        let period = (crossings.last! - crossings.first!) / Double(crossings.count - 1)
        #expect(abs(period / (testSampleRate / Self.rateHz) - 1) < 0.01, "\(waveform): period \(period) frames")
    }

    /// Sample & hold: one level per cycle, changing at each cycle start, spread over the range.
    @Test func sampleAndHoldHoldsOneValuePerCycle() throws {
        let frames = 4 * 48_000
        let out = try tremolo(.sampleAndHold, frames: frames)
        let delayFrames = Int(Self.delaySeconds * testSampleRate)
        let cycle = testSampleRate / Self.rateHz
        var held: [Double] = []
        for start in stride(from: Double(delayFrames), to: Double(frames) - cycle, by: cycle) {
            // Inside a cycle (away from the 64-frame gain ramps toward each new value) the level
            // does not move.
            let values = (Int(start) + 2 * Self.chunk..<Int(start + cycle) - Self.chunk).map { lfoValue(out, at: $0) }
            #expect(values.max()! - values.min()! < 1e-4)
            held.append(values[0])
        }
        #expect(Set(held.map { ($0 * 1000).rounded() }).count == held.count, "every cycle draws a new value")
        #expect(held.allSatisfy { abs($0) <= 1 })
        #expect(held.max()! - held.min()! > 0.5)
    }

    /// A fade-in brings the depth up linearly after the delay.
    @Test func fadeInRaisesTheDepth() throws {
        var layer = plainLayer()
        layer.lfo = SamplerLFO(
            oscillator: .init(waveform: .square, rateHz: 2, delaySeconds: 0, fadeInSeconds: 1),
            gain: SamplerLFODepth(amount: Self.depthDecibels))
        let program = SamplerProgram.single(try constantWaveform(), rootKey: 60, layer: layer)
        let out = render(instrument(playing: program), frames: 96_000, events: [At(0, noteOn(60))]).left
        // Square high half-cycles centred on 0.125 s, 0.625 s, 1.125 s: depth 1/8, 5/8, full.
        for (centre, depth) in [(0.125, 0.125), (0.625, 0.625), (1.125, 1.0)] {
            let index = Int(centre * testSampleRate) / Self.chunk * Self.chunk - 1
            #expect(abs(lfoValue(out, at: index) - depth) < 0.01, "at \(centre) s")
        }
    }

    /// Cutoff: a square LFO of ±1200 cents moves a 1 kHz low-pass to 2 kHz and 500 Hz; a 1 kHz
    /// tone then comes out at the analytic response of each.
    @Test func lfoMovesTheCutoff() throws {
        var layer = plainLayer()
        layer.filter = SamplerFilterSettings(isEnabled: true, cutoffHz: 1_000, resonanceDecibels: 0)
        layer.lfo = SamplerLFO(oscillator: .init(waveform: .square, rateHz: 1), cutoff: SamplerLFODepth(amount: 1_200))
        var zone = SamplerZone(waveform: .sineCycle(frequencyHz: 1_000), rootKey: 69)
        zone.pitchTracking = false
        let out = render(instrument(playing: try SamplerProgram(layers: [layer], zones: [zone])), frames: 48_000,
                         events: [At(0, noteOn(69))]).left
        for (range, cutoff) in [(4_800..<19_200, 2_000.0), (28_800..<43_200, 500.0)] {
            let level = Measure.amplitude(Array(out[range]), at: 1_000, sampleRate: testSampleRate)
            let expected = BiquadCoefficients.design(.lowPass, cutoffHz: cutoff, resonanceDecibels: 0, sampleRate: testSampleRate)
                .magnitude(atHz: 1_000, sampleRate: testSampleRate) * Double(centrePanGain)
            #expect(abs(Measure.decibels(level) - Measure.decibels(expected)) < 0.05, "cutoff \(cutoff)")
        }
    }

    /// Pan: a square LFO of ±0.5 pan positions puts the note at ±0.5 in alternate half-cycles.
    @Test func lfoMovesThePan() throws {
        var layer = plainLayer()
        layer.lfo = SamplerLFO(oscillator: .init(waveform: .square, rateHz: 1), pan: SamplerLFODepth(amount: 0.5))
        let program = SamplerProgram.single(try constantWaveform(), rootKey: 60, layer: layer)
        let out = render(instrument(playing: program), frames: 48_000, events: [At(0, noteOn(60))])
        for (index, position) in [(12_000, 0.5), (36_000, -0.5)] {
            let gains = PanLaw.gains(pan: position)
            #expect(abs(Double(out.left[index]) - gains.left) < 1e-5)
            #expect(abs(Double(out.right[index]) - gains.right) < 1e-5)
        }
    }

    /// A controller scales the depth (mod wheel → vibrato-style routing, here on the level).
    @Test func controllerScalesTheDepth() throws {
        var layer = plainLayer()
        layer.lfo = SamplerLFO(oscillator: .init(waveform: .square, rateHz: 1), gain: SamplerLFODepth(amount: 6, controller: 1))
        let program = SamplerProgram.single(try constantWaveform(), rootKey: 60, layer: layer)
        let out = render(instrument(playing: program), frames: 48_000, events: [
            At(0, controlChange(MIDIController.modulationWheel, 0)), At(0, noteOn(60)),
            At(24_000 + 64 * 10, controlChange(MIDIController.modulationWheel, 127)),
        ]).left
        #expect(abs(Measure.decibels(Double(out[12_000] / centrePanGain))) < 1e-4, "wheel down: no swing")
        #expect(abs(Measure.decibels(Double(out[36_000] / centrePanGain)) + 6) < 0.01, "wheel up: the full −6 dB")
    }
}
