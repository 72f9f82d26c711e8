import AudioTestSupport
import DSP
import Engine
import MIDI
import Testing

/// The master limiter in the engine: a hot chord that clips without it stays under the ceiling
/// with it, a quiet note is untouched, and the parameters reach it.
@Suite struct MasterLimiterTests {
    /// Twelve synth notes at full velocity with `master.gain` +12 dB: several times full scale.
    func hotChord(_ settings: [String]) throws -> [Float] {
        let rig = try EngineRig(blockFrames: 128, settings: ["synth.sustain=1", "master.gain=12"] + settings)
        let chord = (0..<12).map { (0, MIDIMessage.noteOn(channel: 1, note: UInt8(48 + 3 * $0), velocity: 127)) }
        return rig.render(frames: 24000, events: chord).left
    }

    @Test func hotChordIsHeldUnderTheCeiling() throws {
        let unlimited = Measure.peak(try hotChord(["master.limiter.enabled=off"]))
        #expect(unlimited > 2, "the chord is hot: \(Measure.decibels(unlimited)) dBFS")
        let limited = try hotChord([])
        #expect(Measure.peak(limited) <= Decibels.gain(-0.1), "peak \(Measure.decibels(Measure.peak(limited))) dBFS")
        #expect(Measure.rms(limited[12000...]) > 0.2, "level floor: still loud")
        let lower = try hotChord(["master.limiter.ceiling=-6"])
        #expect(Measure.decibels(Measure.peak(lower)) <= -6 && Measure.decibels(Measure.peak(lower)) > -6.5)
    }

    /// After a limited chord and a second of silence, the next quiet note is bit-identical to one
    /// played with the limiter off: the gain is back at exactly 1.
    @Test func unityReturnsAfterSilence() throws {
        func afterChord(_ settings: [String]) throws -> [Float] {
            let rig = try EngineRig(blockFrames: 128, settings: ["master.gain=12", "fx.enabled=off"] + settings)
            let chord = (0..<12).map { UInt8(48 + 3 * $0) }
            _ = rig.render(frames: 12000, events: chord.map { (0, .noteOn(channel: 1, note: $0, velocity: 127)) })
            _ = rig.render(frames: 60000, events: chord.map { (0, .noteOff(channel: 1, note: $0, velocity: 0)) })
            return rig.render(frames: 9600, events: [(0, .noteOn(channel: 1, note: 69, velocity: 40))]).left
        }
        let on = try afterChord([]), off = try afterChord(["master.limiter.enabled=off"])
        #expect(on == off && Measure.peak(on) > 0.01 && Measure.peak(on) < 0.9)
    }

    /// Under the ceiling the engine's output is the same with the limiter on or off.
    @Test func quietNoteIsUntouched() throws {
        func note(_ settings: [String]) throws -> [Float] {
            try EngineRig(settings: settings).render(frames: 9600, events: [(10, .noteOn(channel: 1, note: 69, velocity: 100))]).left
        }
        let on = try note([]), off = try note(["master.limiter.enabled=off"])
        #expect(on == off && Measure.peak(on) > 0.05)
    }
}
