import ALSAIO
import MIDI
import Testing

@Suite struct SourceNoteTrackerTests {
    let keyboard = SequencerAddress(client: 20, port: 0)
    let iPad = SequencerAddress(client: 130, port: 1)

    @Test func releasesExactlyTheNotesStillHeld() {
        var tracker = SourceNoteTracker()
        tracker.observe(.noteOn(channel: 0, note: 60, velocity: 100), from: keyboard)
        tracker.observe(.noteOn(channel: 0, note: 64, velocity: 100), from: keyboard)
        tracker.observe(.noteOn(channel: 9, note: 127, velocity: 1), from: keyboard)
        tracker.observe(.noteOn(channel: 0, note: 67, velocity: 100), from: keyboard)
        tracker.observe(.noteOff(channel: 0, note: 64, velocity: 0), from: keyboard)
        tracker.observe(.noteOn(channel: 0, note: 67, velocity: 0), from: keyboard)  // velocity 0 = off
        #expect(tracker.heldNoteCount(for: keyboard) == 2)
        #expect(
            tracker.releaseMessages(for: keyboard) == [
                .noteOff(channel: 0, note: 60, velocity: 0), .noteOff(channel: 9, note: 127, velocity: 0),
            ])
        #expect(tracker.releaseMessages(for: keyboard).isEmpty)  // forgotten after release
    }

    @Test func sustainPedalDownIsLiftedPerChannel() {
        var tracker = SourceNoteTracker()
        tracker.observe(.noteOn(channel: 2, note: 48, velocity: 90), from: iPad)
        tracker.observe(.controlChange(channel: 2, controller: MIDIController.sustainPedal, value: 127), from: iPad)
        tracker.observe(.noteOff(channel: 2, note: 48, velocity: 0), from: iPad)  // still sounding via the pedal
        tracker.observe(.controlChange(channel: 5, controller: MIDIController.sustainPedal, value: 64), from: iPad)
        tracker.observe(.controlChange(channel: 6, controller: MIDIController.sustainPedal, value: 127), from: iPad)
        tracker.observe(.controlChange(channel: 6, controller: MIDIController.sustainPedal, value: 63), from: iPad)
        #expect(
            tracker.releaseMessages(for: iPad) == [
                .controlChange(channel: 2, controller: 64, value: 0), .controlChange(channel: 5, controller: 64, value: 0),
            ])
    }

    @Test func sourcesAreIndependent() {
        var tracker = SourceNoteTracker()
        tracker.observe(.noteOn(channel: 0, note: 60, velocity: 100), from: keyboard)
        tracker.observe(.noteOn(channel: 0, note: 62, velocity: 100), from: iPad)
        tracker.observe(.noteOff(channel: 0, note: 60, velocity: 0), from: iPad)  // not iPad's note
        #expect(tracker.releaseMessages(for: iPad) == [.noteOff(channel: 0, note: 62, velocity: 0)])
        #expect(tracker.releaseMessages(for: keyboard) == [.noteOff(channel: 0, note: 60, velocity: 0)])
    }

    @Test func everyNoteOfEveryChannelIsTracked() {
        var tracker = SourceNoteTracker(maxSources: 1)
        for channel in UInt8(0)..<16 {
            for note in UInt8(0)..<128 { tracker.observe(.noteOn(channel: channel, note: note, velocity: 1), from: keyboard) }
        }
        #expect(tracker.heldNoteCount(for: keyboard) == 16 * 128)
        var released = 0
        tracker.release(source: keyboard) { message in
            if case .noteOff = message { released += 1 }
        }
        #expect(released == 16 * 128)
    }

    @Test func aFullTableReusesIdleSlotsAndCountsWhatItCannotTrack() {
        var tracker = SourceNoteTracker(maxSources: 1)
        tracker.observe(.noteOn(channel: 0, note: 60, velocity: 100), from: keyboard)
        tracker.observe(.noteOn(channel: 0, note: 61, velocity: 100), from: iPad)  // no free slot
        #expect(tracker.untrackedSourceCount == 1)
        #expect(tracker.heldNoteCount(for: iPad) == 0)
        tracker.observe(.noteOff(channel: 0, note: 60, velocity: 0), from: keyboard)  // keyboard now idle
        tracker.observe(.noteOn(channel: 0, note: 61, velocity: 100), from: iPad)  // takes the idle slot
        #expect(tracker.heldNoteCount(for: iPad) == 1)
        #expect(tracker.releaseMessages(for: iPad) == [.noteOff(channel: 0, note: 61, velocity: 0)])
    }

    @Test func otherMessagesAndUnknownSourcesChangeNothing() {
        var tracker = SourceNoteTracker()
        tracker.observe(.pitchBend(channel: 0, value: 100), from: keyboard)
        tracker.observe(.controlChange(channel: 0, controller: 1, value: 127), from: keyboard)
        tracker.observe(.noteOff(channel: 0, note: 60, velocity: 0), from: keyboard)
        #expect(tracker.releaseMessages(for: keyboard).isEmpty)
        #expect(tracker.releaseMessages(for: SequencerAddress(client: 99, port: 9)).isEmpty)
    }

    /// Issue 8: `audiograph cc 64 127` is a one-shot client; its exit must not lift the pedal
    /// it put down, while a note it left held (a `note` killed mid-way) is still released.
    @Test func aCommandSenderLeavesItsPedalDownButNotItsNotes() {
        let command = SequencerAddress(client: 131, port: 0)
        var tracker = SourceNoteTracker()
        tracker.observe(.controlChange(channel: 0, controller: MIDIController.sustainPedal, value: 127), from: command)
        tracker.observe(.controlChange(channel: 3, controller: MIDIController.sustainPedal, value: 127), from: command)
        tracker.observe(.noteOn(channel: 0, note: 60, velocity: 100), from: command)
        #expect(tracker.releaseMessages(for: command, liftingPedal: false) == [.noteOff(channel: 0, note: 60, velocity: 0)])
        #expect(tracker.releaseMessages(for: command).isEmpty)  // forgotten: a later source gone lifts nothing of it
        // The same history from a real source that vanishes: notes and pedals released.
        tracker.observe(.controlChange(channel: 0, controller: MIDIController.sustainPedal, value: 127), from: keyboard)
        tracker.observe(.noteOn(channel: 0, note: 60, velocity: 100), from: keyboard)
        #expect(tracker.releaseMessages(for: keyboard) == [
            .noteOff(channel: 0, note: 60, velocity: 0), .controlChange(channel: 0, controller: 64, value: 0),
        ])
    }
}
