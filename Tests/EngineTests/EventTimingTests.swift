import AudioTestSupport
import Engine
import MIDI
import Testing

@Suite struct EventTimingTests {
    /// An event at frame offset k starts the note at frame k exactly, whatever the block size.
    @Test(arguments: [1, 3, 64, 100, 256, 4096])
    func noteStartsOnItsFrame(blockFrames: Int) throws {
        for k in [0, 1, 37, 63, 64, 129, 1000] {
            let rig = try EngineRig(blockFrames: blockFrames)
            let out = rig.render(frames: 2000, events: [(k, .noteOn(channel: 1, note: 69, velocity: 127))])
            let first = out.left.firstIndex { $0 != 0 }
            #expect(first == k, "block \(blockFrames), event at \(k), sound from \(String(describing: first))")
        }
    }

    @Test func renderingIsDeterministic() throws {
        let events: [(Int, MIDIMessage)] = [
            (10, .noteOn(channel: 1, note: 60, velocity: 90)), (500, .noteOn(channel: 1, note: 67, velocity: 70)),
            (4000, .pitchBend(channel: 1, value: 3000)), (9000, .noteOff(channel: 1, note: 60, velocity: 0)),
        ]
        let a = try EngineRig(blockFrames: 100).render(frames: 20000, events: events)
        let b = try EngineRig(blockFrames: 100).render(frames: 20000, events: events)
        #expect(a.left == b.left && a.right == b.right)
    }

    /// An instrument restricted to channels 1 and 2: a note on channel 10 is silent, counted as
    /// ignored (and why), and the graph stays idle (it skips its DSP). Unrestricted, the same note sounds.
    @Test func restrictedChannelsStaySilentCountTheirNotesAndLeaveTheGraphIdle() throws {
        let note: [(Int, MIDIMessage)] = [(0, .noteOn(channel: 9, note: 60, velocity: 100))]
        let rig = try EngineRig(content: EngineContent(routing: ChannelRouting(playing: [0, 1])))
        let out = rig.render(frames: 4800, events: note)
        #expect(Measure.peak(out.left) == 0)
        #expect(rig.engine.isIdle)
        #expect(rig.engine.partMeters.notesIgnored(channel: 9, reason: .channelNotPlayed) == 1)
        #expect(rig.engine.partMeters.notesPlayed(channel: 9) == 0)
        let open = try EngineRig()
        #expect(Measure.peak(open.render(frames: 4800, events: note).left) > 0.01, "every channel plays by default")
        #expect(open.engine.partMeters.notesPlayed(channel: 9) == 1)
    }
}
