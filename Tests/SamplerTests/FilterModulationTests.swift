import AudioTestSupport
import DSP
import MIDI
import Sampler
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Cutoff modulation by key, controller and filter envelope, measured against the RBJ response
/// at the cutoff the modulation should produce.
@Suite struct FilterModulationTests {
    let toneHz = 2_000.0
    let levelToleranceDecibels = 0.1

    func layer(_ modulation: SamplerFilterModulation, cutoffHz: Double) -> SamplerLayer {
        var layer = plainLayer()
        layer.filter = SamplerFilterSettings(isEnabled: true, cutoffHz: cutoffHz, resonanceDecibels: 0)
        layer.filterModulation = modulation
        return layer
    }

    /// Steady level of the 2 kHz tone (pitch tracking off, so every key plays 2 kHz).
    func level(_ layer: SamplerLayer, key: Int, before: [At] = []) throws -> Double {
        var zone = SamplerZone(waveform: .sineCycle(frequencyHz: toneHz), rootKey: 69)
        zone.pitchTracking = false
        let program = try SamplerProgram(layers: [layer], zones: [zone])
        let out = render(instrument(playing: program), frames: 24_000, events: before + [At(0, noteOn(key))])
        return Measure.amplitude(Array(out.left[9_600...]), at: toneHz, sampleRate: testSampleRate)
    }

    func expected(cutoffHz: Double, toneHz: Double = 2_000) -> Double {
        BiquadCoefficients.design(.lowPass, cutoffHz: cutoffHz, resonanceDecibels: 0, sampleRate: testSampleRate)
            .magnitude(atHz: toneHz, sampleRate: testSampleRate) * Double(centrePanGain)
    }

    @Test(arguments: [48, 60])
    func keyTrackingFollowsTheKeyboard(key: Int) throws {
        var modulation = SamplerFilterModulation()
        modulation.byKey = SamplerModulationAmount(atOne: 12_800)  // 100 cents per key
        let measured = try level(layer(modulation, cutoffHz: 100), key: key)
        let cutoff = 100 * pow(2, Double(key) / 12)
        #expect(abs(Measure.decibels(measured) - Measure.decibels(expected(cutoffHz: cutoff))) < levelToleranceDecibels)
    }

    @Test func controllerMovesTheCutoff() throws {
        var modulation = SamplerFilterModulation()
        modulation.controller = 74
        modulation.byController = SamplerModulationAmount(atZero: -2_400, atOne: 2_400)
        let measured = try level(layer(modulation, cutoffHz: 2_000), key: 60, before: [At(0, controlChange(74, 0))])
        #expect(abs(Measure.decibels(measured) - Measure.decibels(expected(cutoffHz: 500))) < levelToleranceDecibels)
    }

    @Test func filterEnvelopeOpensToItsSustain() throws {
        var modulation = SamplerFilterModulation()
        modulation.envelope = EnvelopeSettings(attackSeconds: 0.05, decaySeconds: 0, sustainLevel: 1, releaseSeconds: 0.1)
        modulation.byEnvelope = SamplerModulationAmount(atOne: 2_400)
        let measured = try level(layer(modulation, cutoffHz: 500), key: 60)
        #expect(abs(Measure.decibels(measured) - Measure.decibels(expected(cutoffHz: 2_000))) < levelToleranceDecibels)
    }

    /// A controller jump glides the cutoff (20 ms, updated every 8 frames): no step in the output
    /// (measured 0.0006; updating every 64 frames gave 0.011).
    @Test func controllerJumpGlidesWithoutAStep() throws {
        var modulation = SamplerFilterModulation()
        modulation.controller = 74
        modulation.byController = SamplerModulationAmount(atZero: -2_400, atOne: 2_400)
        var zone = SamplerZone(waveform: .sineCycle(frequencyHz: 200), rootKey: 69)
        zone.pitchTracking = false
        let program = try SamplerProgram(layers: [layer(modulation, cutoffHz: 400)], zones: [zone])
        let out = render(instrument(playing: program), frames: 19_200, events: [
            At(0, controlChange(74, 0)), At(0, noteOn(60)), At(9_600, controlChange(74, 127)),
        ])
        Measure.expectNoClick(Array(out.left[2_400...]))
        // And it got there: 200 Hz is well inside the 1.6 kHz pass band afterwards.
        let after = Measure.amplitude(Array(out.left[14_400...]), at: 200, sampleRate: testSampleRate)
        #expect(abs(Measure.decibels(after) - Measure.decibels(expected(cutoffHz: 1_600, toneHz: 200))) < 0.1)
    }
}
