import AudioTestSupport
import DSP
import Engine
import Instruments
import MIDI
import Testing

/// Issue 10 case 5: NaN or infinity never reaches the output and never poisons the graph.
@Suite struct NonFiniteGuardTests {
    /// A beat loop whose samples are NaN (as a corrupt file or a bad gain would give): the output
    /// stays finite, the event is counted, the loop is reset, and a synth note played afterwards on
    /// another channel is clean and audible (before the guard it came out NaN too).
    @Test func aPoisonedBusIsSilencedCountedAndDoesNotPoisonLaterNotes() throws {
        let poison = [Float](repeating: .nan, count: 4800)
        var content = EngineContent()
        content.loops[.beat] = LoopSample(name: "nan", channels: [poison])
        let rig = try EngineRig(content: content, settings: ["loop.beat.play=on", "master.lowpass.enabled=on"])
        let first = rig.render(frames: 4800)
        #expect(first.left.allSatisfy { $0.isFinite } && first.right.allSatisfy { $0.isFinite })
        #expect(rig.engine.meters.nonFiniteBlocks > 0)
        try rig.engine.parameters.apply(assignment: "loop.beat.play=off")
        let note = rig.render(frames: 9600, events: [(0, .noteOn(channel: 1, note: 69, velocity: 100))])
        #expect(note.left.allSatisfy { $0.isFinite })
        let level = Measure.rms(note.left[4800...])
        #expect(level > 0.01, "the synth note sounds (rms \(level))")
        #expect(abs(Measure.frequency(note.left[4800...], sampleRate: EngineRig.rate, guess: 440)! - 440) < 1)
    }

    /// A NaN in the mic/line input is scrubbed before the mic chain (whose filters it would poison).
    @Test func aNaNInTheInputIsScrubbed() throws {
        var input = Measure.sine(frequency: 440, sampleRate: EngineRig.rate, count: 9600)
        input[100] = .nan
        input[5000] = .infinity
        let rig = try EngineRig(settings: ["mic.effect=lowpass"])
        let out = rig.render(frames: 9600, input: input)
        #expect(out.left.allSatisfy { $0.isFinite } && out.right.allSatisfy { $0.isFinite })
        #expect(rig.engine.meters.nonFiniteBlocks == 2)
        #expect(Measure.rms(out.left[7000...]) > 0.05, "the input still plays after the bad samples")
    }

    @Test func theGuardSilencesOnlyABlockWithANonFiniteSample() {
        let buffer = StereoBuffer(capacity: 64)
        let block = buffer.block(frames: 64)
        for i in 0..<64 { block.left[i] = 0.5; block.right[i] = -0.5 }
        #expect(!NonFiniteGuard.scrub(block))
        #expect(block.left[63] == 0.5 && block.right[0] == -0.5, "a finite block is untouched")
        block.right[17] = -.infinity
        #expect(NonFiniteGuard.scrub(block))
        #expect((0..<64).allSatisfy { block.left[$0] == 0 && block.right[$0] == 0 })
    }

    /// A runaway unit (an unstable filter) is finite for many blocks before it overflows: found by a
    /// preset with resonance 1e308 and an LFO on cutoff, whose render peaked at +513 dBFS. Loud but
    /// healthy sums (+72 dBFS) pass; the first sample beyond +80 dBFS silences the block.
    @Test func theGuardSilencesARunawayBlockButNotALoudOne() {
        let buffer = StereoBuffer(capacity: 64)
        let block = buffer.block(frames: 64)
        for i in 0..<64 { block.left[i] = 4_000; block.right[i] = -4_000 }
        #expect(!NonFiniteGuard.scrub(block))
        #expect(block.left[0] == 4_000, "+72 dBFS is kept")
        block.left[40] = 2e25
        #expect(NonFiniteGuard.scrub(block))
        #expect((0..<64).allSatisfy { block.left[$0] == 0 && block.right[$0] == 0 })
    }
}
