import AudioTestSupport
import DSP
import Engine
import MIDI
import Sampler
import SamplerLevels
import Testing

/// The engine routes each channel's notes to what its part plays (a sampler program or the synth),
/// and everything else to both instruments, so a note started before a program change still ends.
@Suite struct PartRoutingTests {
    let rate = EngineRig.rate

    @Test func aNoteKeepsItsProgramUntilReleasedWhenTheChannelSwitchesToTheSynth() throws {
        var layer = SamplerLayer()
        layer.ampEnvelope = EnvelopeSettings(attackSeconds: 0.005, holdSeconds: 0, decaySeconds: 0, sustainLevel: 1, releaseSeconds: 0.05)
        let program = SamplerProgram.single(.sineCycle(frequencyHz: 440), rootKey: 69, layer: layer)
        program.buildAllLevels()
        let bank = ProgramBank(programs: [program], names: ["sine"], table: [0: [.sampler(0), .synth]])
        let rig = try EngineRig(content: EngineContent(programBank: bank),
                                settings: ["master.lowpass.enabled=off", "master.highpass.enabled=off", "synth.attack=0.005", "fx.enabled=off"])
        let out = rig.render(frames: 48_000, events: [
            (0, .noteOn(channel: 4, note: 57, velocity: 100)),  // sampler, 220 Hz
            (9_600, .programChange(channel: 4, program: 1)),  // channel 5 → the synth
            (9_600, .noteOn(channel: 4, note: 64, velocity: 100)),  // synth, 329.6 Hz
            (24_000, .noteOff(channel: 4, note: 57, velocity: 0)),  // ends the sampler note
        ]).left
        let f57 = Measure.noteFrequency(57), f64 = Measure.noteFrequency(64)
        let before = Measure.amplitude(out[2_400..<9_600], at: f57, sampleRate: rate)
        let during = Measure.amplitude(out[12_000..<24_000], at: f57, sampleRate: rate)
        #expect(before > 0.02, "level floor")
        #expect(abs(Measure.decibels(during / before)) < 0.05, "the sampler note sounds on, unchanged")
        #expect(Measure.amplitude(out[12_000..<24_000], at: f64, sampleRate: rate) > 0.02, "the new note plays on the synth")
        #expect(Measure.amplitude(out[28_800...], at: f57, sampleRate: rate) < 1e-4, "its note-off reached the sampler")
        #expect(Measure.amplitude(out[28_800...], at: f64, sampleRate: rate) > 0.02)
        Measure.expectNoClick(out[2_400...])
        #expect(rig.engine.activeVoiceCounts.sampler == 0 && rig.engine.activeVoiceCounts.synth == 1)
        #expect(rig.engine.partMeters.notesPlayed(channel: 4) == 2)
        #expect(rig.engine.partMeters.program(channel: 4) == .synth)
        #expect(rig.engine.partMeters.voices(channel: 4) == 1)
    }
}
