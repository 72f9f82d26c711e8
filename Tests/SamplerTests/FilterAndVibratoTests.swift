import AudioTestSupport
import DSP
import MIDI
import Sampler
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The layer low-pass filter against the RBJ analytic response, and mod-wheel vibrato depth.
@Suite struct FilterAndVibratoTests {
    @Test(arguments: [500.0, 2_000.0, 8_000.0])
    func filterAttenuatesAsTheAnalyticResponse(toneHz: Double) throws {
        var layer = plainLayer()
        layer.filter = SamplerFilterSettings(isEnabled: true, cutoffHz: 1_000, resonanceDecibels: 0)
        // Root 69 + pitch tracking off: the zone plays its table at exactly toneHz.
        var zone = SamplerZone(waveform: .sineCycle(frequencyHz: toneHz), rootKey: 69)
        zone.pitchTracking = false
        let filtered = render(instrument(playing: try SamplerProgram(layers: [layer], zones: [zone])), frames: 24_000,
                              events: [At(0, noteOn(69))])
        let level = Measure.amplitude(Array(filtered.left[4_800...]), at: toneHz, sampleRate: testSampleRate)
        let expected = BiquadCoefficients.design(.lowPass, cutoffHz: 1_000, resonanceDecibels: 0, sampleRate: testSampleRate)
            .magnitude(atHz: toneHz, sampleRate: testSampleRate) * Double(centrePanGain)
        #expect(abs(Measure.decibels(level) - Measure.decibels(expected)) < 0.1)
    }

    @Test func modWheelVibratoSwingsByTheLayerDepth() throws {
        var layer = plainLayer()
        layer.lfo = SamplerLFO(
            oscillator: .init(waveform: .sine, rateHz: 2), pitch: SamplerLFODepth(amount: 50, controller: 1))
        let program = SamplerProgram.single(.sineCycle(frequencyHz: 440), rootKey: 69, layer: layer)
        let out = render(instrument(playing: program), frames: 96_000, events: [
            At(0, controlChange(MIDIController.modulationWheel, 127)), At(0, noteOn(69)),
        ])
        // Instantaneous frequency over 10 ms windows: it should reach ±50 cents, not more.
        var lowest = 0.0, highest = 0.0
        for start in stride(from: 4_800, to: 96_000 - 2_400, by: 480) {
            let window = Array(out.left[start..<(start + 2_400)])
            guard let hz = Measure.zeroCrossingFrequency(window, sampleRate: testSampleRate) else { continue }
            let cents = Measure.cents(hz, relativeTo: 440)
            lowest = min(lowest, cents)
            highest = max(highest, cents)
        }
        // 50 ms windows average the swing a little (2 Hz LFO): expect 40…52 cents each way.
        #expect(highest > 40 && highest < 52)
        #expect(lowest < -40 && lowest > -52)
    }

    @Test func noModWheelNoVibrato() throws {
        let program = SamplerProgram.single(.sineCycle(frequencyHz: 440), rootKey: 69, layer: plainLayer())
        let out = render(instrument(playing: program), frames: 48_000, events: [At(0, noteOn(69))])
        let first = try #require(Measure.zeroCrossingFrequency(Array(out.left[4_800..<7_200]), sampleRate: testSampleRate))
        let later = try #require(Measure.zeroCrossingFrequency(Array(out.left[30_000..<32_400]), sampleRate: testSampleRate))
        #expect(abs(Measure.cents(first, relativeTo: later)) < 1)
    }
}
