import AudioTestSupport
import DSP
import Sampler
import Testing

/// Levels of a SoundFont voice against FluidSynth 2.3.1's, measured on a one-zone font with
/// `fluidsynth -ni -R 0 -C 0 -g 1.0 -r 44100` (the table in the SoundFont notes, §9): the left
/// channel of a held note relative to the raw sample. FluidSynth's own quirks are the reference:
/// the always-on filter's +1.5 dB, the sine pan law's −3 dB, the 127/128 controller mapping, the
/// ×0.4 of initialAttenuation (applied by the loader: a font's 100 cB arrives here as 40),
/// truncation to whole centibels.
@Suite struct SoundFontLevelTests {
    /// Left-channel level (dB) of a note held 0.2 s, after `setup` messages at frame 0.
    func heldLevel(
        generators: [Int: Double] = [:], velocity: Int = 127, controllers: [(UInt8, Int)] = [(7, 127)], channel: Bool = true, gain: Double = 1
    ) throws -> (left: Double, right: Double) {
        let program = try soundFontProgram([soundFontZone(try constantSoundFontWaveform(), rootKey: 60, generators: generators, gain: gain)])
        let sampler = soundFontInstrument(program)
        var events = controllers.map { At(0, controlChange($0.0, $0.1)) }
        events.append(At(1, noteOn(60, velocity)))
        let out = render(sampler, frames: 8_820, events: events)
        return (decibels(out.left[8_800]), decibels(out.right[8_800]))
    }

    @Test func fullControllersAtTheCentre() throws {
        #expect(abs(try heldLevel().left - -1.91) < 0.02)
    }

    /// FluidSynth's default `synth.gain` 0.2 (what the loader gives every zone): −13.98 dB on the voice.
    @Test func fluidSynthDefaultGain() throws {
        let level = try heldLevel(gain: 0.2)
        #expect(abs(level.left - (-1.91 - 13.98)) < 0.02)
        #expect(abs(level.right - (-1.91 - 13.98)) < 0.02)
    }

    @Test func volumeAtTheGeneralMIDIDefault() throws {
        #expect(abs(try heldLevel(controllers: [(7, 100)]).left - -6.01) < 0.02)
    }

    @Test func velocity64() throws {
        #expect(abs(try heldLevel(velocity: 64).left - -13.81) < 0.02)
    }

    @Test func attenuation40CentibelsAfterTheLoader() throws {
        #expect(abs(try heldLevel(generators: [SF2Generator.initialAttenuation: 40]).left - -5.91) < 0.02)
    }

    @Test func filterQ100Centibels() throws {
        #expect(abs(try heldLevel(generators: [SF2Generator.initialFilterQ: 100]).left - -6.91) < 0.05)
    }

    @Test(arguments: [(120.0, -13.41), (480.0, -47.9)])
    func sustainLevel(sustain: Double, expected: Double) throws {
        #expect(abs(try heldLevel(generators: [SF2Generator.volEnvSustain: sustain]).left - expected) < 0.05)
    }

    @Test func sinePanLaw() throws {
        let level = try heldLevel(generators: [SF2Generator.pan: -250])
        #expect(abs(level.left - 0.41) < 0.02)
        #expect(abs(level.right - -7.25) < 0.02)
    }
}
