import AudioTestSupport
import Engine
import MIDI
import Sampler
import SamplerLevels
import Testing

@Suite struct SamplerBusTests {
    func rig(_ settings: [String]) throws -> EngineRig {
        let program = SamplerProgram.single(.sineCycle(frequencyHz: 440, frames: 2048), rootKey: 69, globals: SamplerGlobals(voiceCount: 64))
        program.buildAllLevels()
        return try EngineRig(content: EngineContent(samplerProgram: program), settings: settings)
    }

    @Test func channelOnePlaysTheSamplerAtThePitchOfTheNote() throws {
        let out = try rig([]).render(frames: 48000, events: [(0, .noteOn(channel: 0, note: 76, velocity: 110))])
        let expected = Measure.noteFrequency(76)
        let measured = Measure.frequency(out.left[12000...], sampleRate: EngineRig.rate, guess: expected)!
        #expect(abs(Measure.cents(measured, relativeTo: expected)) < 0.5)
    }

    /// `sampler.voices` overrides the preset's voice count; extra notes steal (with a fade).
    @Test func samplerVoicesOverridesThePresetPolyphony() throws {
        let r = try rig(["sampler.voices=4"])
        let notes = (0..<10).map { (0, MIDIMessage.noteOn(channel: 0, note: UInt8(50 + $0), velocity: 100)) }
        let out = r.render(frames: 9600, events: notes)
        #expect(r.engine.activeVoiceCounts.sampler == 4)
        Measure.expectNoClick(out.left)
    }
}
