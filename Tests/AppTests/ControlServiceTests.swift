import Engine
import LiveControl
import LiveTestSupport
import MIDI
import Testing

/// `ControlService`, the one way every front end (the control socket, a panel) reaches a running
/// instrument: what it sets, the text protocol reads back; the notes it plays sound within two
/// periods and panic silences them; out-of-range values and a full ring are refused with one line.
@Suite struct ControlServiceTests {
    static let releasePeriods = Int(0.1 * 48000 / 64)  // longer than the synth's 50 ms release

    @Test func notesFromTheServiceSoundAndPanicSilencesThemPedalOrNot() throws {
        let probe = try synthLiveLoop()
        try probe.service.send(.controlChange(channel: 1, controller: 64, value: 127))
        for note: UInt8 in [60, 64, 67] { try probe.service.note(channel: 1, note: note, velocity: 100) }
        probe.runPeriods(2)
        #expect(probe.activeVoiceCounts.synth == 3, "applied within two periods (one that arrives after a period's boundary waits for the next)")
        probe.runPeriods(20)
        #expect(probe.controller.meters.outputPeakDecibels.left > -30)
        try probe.service.note(channel: 1, note: 64, velocity: nil)
        probe.runPeriods(Self.releasePeriods)
        #expect(probe.activeVoiceCounts.synth == 3, "held by the pedal")
        try probe.service.panic()
        probe.runPeriods(Self.releasePeriods)
        #expect(probe.activeVoiceCounts.synth == 0)
    }

    @Test func whatTheServiceSetsTheSocketProtocolReadsBack() throws {
        let probe = try synthLiveLoop()
        try probe.service.set("master.gain", value: -6)
        try probe.service.set(assignments: ["mic.effect=delay", "synth.release=0.5"])
        #expect(probe.controlRequest("get master.gain") == "ok master.gain = -6 dB")
        #expect(probe.controlRequest("get mic.effect") == "ok mic.effect = delay")
        #expect(try probe.service.get("synth.release") == "0.5 s")
        #expect(probe.service.value("master.gain") == -6)
        #expect(probe.service.status().playback == "probe")
        #expect(throws: ParameterError.self) { try probe.service.set("master.gain", value: 40) }
        #expect(probe.service.value("master.gain") == -6, "an out-of-range value changes nothing")
    }

    @Test func outOfRangeMIDIAndAFullRingAreRefused() throws {
        let probe = try synthLiveLoop()
        #expect(throws: ControlError.self) { try probe.service.note(channel: 16, note: 60, velocity: 100) }
        #expect(throws: ControlError.self) { try probe.service.note(channel: 0, note: 128, velocity: 100) }
        #expect(throws: ControlError.self) { try probe.service.note(channel: 0, note: 60, velocity: 0) }
        #expect(throws: ControlError.self) { try probe.service.send(.pitchBend(channel: 0, value: 8192)) }
        // Nothing renders, so the control ring (1024) fills; the next message is refused, not lost silently.
        var accepted = 0
        while (try? probe.service.send(.controlChange(channel: 0, controller: 1, value: UInt8(accepted % 128)))) != nil { accepted += 1 }
        #expect(accepted == 1024)
        probe.runPeriods(200)  // the ring drains at the period budget
        try probe.service.note(channel: 1, note: 69, velocity: 100)
        probe.runPeriods(2)
        #expect(probe.activeVoiceCounts.synth == 1)
    }
}
