import AudioTestSupport
import DSP
import Sampler

/// The rate of FluidSynth's reference measurements (notes: 44.1 kHz, `fluidsynth -r 44100`).
let soundFontTestRate = 44_100.0

/// A program of SoundFont zones built by hand (no file): each zone a waveform, a key range and
/// its generators; FluidSynth's default modulators unless given.
func soundFontProgram(_ zones: [SamplerZone]) throws -> SamplerProgram {
    var layer = SamplerLayer()
    layer.lfo = nil
    return try SamplerProgram(layers: [layer], zones: zones)
}

/// One SoundFont zone over `keys` playing `waveform` (its natural loop unless `loop` or `unlooped` say otherwise).
func soundFontZone(
    _ waveform: SamplerWaveform, keys: ClosedRange<Int> = 0...127, rootKey: Int = 60, loop: SamplerLoop? = nil, unlooped: Bool = false,
    generators: [Int: Double] = [:], modulators: [SF2Modulator] = SF2Modulator.fluidSynthDefaults, loopsUntilRelease: Bool = false,
    gain: Double = 1
) -> SamplerZone {
    var zone = SamplerZone(waveform: waveform, rootKey: rootKey)
    zone.minKey = keys.lowerBound
    zone.maxKey = keys.upperBound
    if let loop { zone.loop = loop }
    if unlooped { zone.loop = nil }
    var values = SF2Generators()
    for (generator, value) in generators { values[generator] = value }
    zone.soundFont = SF2ZoneArticulation(
        generators: values, modulators: modulators, originalPitch: rootKey, loopsUntilRelease: loopsUntilRelease, gain: gain)
    return zone
}

/// An instrument at 44.1 kHz playing `program`.
func soundFontInstrument(_ program: SamplerProgram, maxVoices: Int = 64) -> SamplerInstrument {
    let instrument = SamplerInstrument(sampleRate: soundFontTestRate, maxFrames: 512, maxVoices: maxVoices)
    instrument.submit(program)
    return instrument
}

/// A looped constant-1 waveform at 44.1 kHz: the output is the voice's gain exactly.
func constantSoundFontWaveform(frames: Int = 8192) throws -> SamplerWaveform {
    try constantWaveform(frames: frames, sampleRate: soundFontTestRate)
}

func decibels(_ x: Float) -> Double { Measure.decibels(Double(abs(x))) }
