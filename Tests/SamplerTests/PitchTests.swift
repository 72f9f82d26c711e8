import AudioTestSupport
import Sampler
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct PitchTests {
    /// Phase-vocoder frequency estimate on 1 s of a pure tone; the 32.32 phase step is exact to
    /// 2⁻³² frames, so anything beyond this is a tuning bug.
    let pitchToleranceCents = 0.5

    @Test(arguments: [12, -12, 7, -7, 0, 36, -36])
    func transposedSineIsInTune(semitones: Int) throws {
        let program = SamplerProgram.single(.sineCycle(frequencyHz: 440), rootKey: 69, layer: plainLayer())
        let sampler = instrument(playing: program)
        let out = render(sampler, frames: 60_000, events: [At(0, noteOn(69 + semitones))])
        let expected = Measure.noteFrequency(Double(69 + semitones))
        let measured = try #require(Measure.frequency(Array(out.left[4800...]), sampleRate: testSampleRate))
        #expect(abs(Measure.cents(measured, relativeTo: expected)) < pitchToleranceCents)
    }

    @Test func pitchBendMovesByTheLayerRange() throws {
        var layer = plainLayer()
        layer.pitchBendRangeSemitones = 2
        let program = SamplerProgram.single(.sineCycle(frequencyHz: 440), rootKey: 69, layer: layer)
        let sampler = instrument(playing: program)
        let out = render(sampler, frames: 60_000, events: [
            At(0, .pitchBend(channel: 0, value: -8192)), At(0, noteOn(69)),
        ])
        let measured = try #require(Measure.frequency(Array(out.left[4800...]), sampleRate: testSampleRate))
        #expect(abs(Measure.cents(measured, relativeTo: Measure.noteFrequency(67))) < pitchToleranceCents)
    }

    @Test func zoneTuneAndGlobalTuneAdd() throws {
        var zone = SamplerZone(waveform: .sineCycle(frequencyHz: 440), rootKey: 69)
        zone.tuneCents = 30
        let program = try SamplerProgram(layers: [plainLayer()], zones: [zone], globals: SamplerGlobals(tuneCents: -130))
        let sampler = instrument(playing: program)
        let out = render(sampler, frames: 60_000, events: [At(0, noteOn(69))])
        let measured = try #require(Measure.frequency(Array(out.left[4800...]), sampleRate: testSampleRate))
        #expect(abs(Measure.cents(measured, relativeTo: Measure.noteFrequency(68))) < pitchToleranceCents)
    }

    @Test func pitchTrackingOffPlaysEveryKeyAtTheRoot() throws {
        var zone = SamplerZone(waveform: .sineCycle(frequencyHz: 440), rootKey: 69)
        zone.pitchTracking = false
        let sampler = instrument(playing: try SamplerProgram(layers: [plainLayer()], zones: [zone]))
        let out = render(sampler, frames: 60_000, events: [At(0, noteOn(40))])
        let measured = try #require(Measure.frequency(Array(out.left[4800...]), sampleRate: testSampleRate))
        #expect(abs(Measure.cents(measured, relativeTo: 440)) < pitchToleranceCents)
    }
}
