import AudioGraphApp
import Engine
import MIDI
import Foundation
import LiveTestSupport
import Synchronization
import Testing

/// The default instrument as its demo plays it (channel 2 on the synth; release 50 ms, sustain 1) in
/// the live loop at 64 frames.
func synthLiveLoop(loseOutputAtPeriod: Int? = nil) throws -> LiveLoopProbe {
    var loader = try InstrumentLoader(instrumentPath: OfflineRenderTests.defaultInstrument)
    loader.playsDemo = true
    loader.assignments = ["synth.release=0.05", "synth.sustain=1"]
    let engine = try loader.makeEngine(configuration: EngineConfiguration(sampleRate: 48000, maxFrames: 64))
    return try LiveLoopProbe(engine: engine, periodFrames: 64, input: nil, loseOutputAtPeriod: loseOutputAtPeriod)
}

/// When a MIDI source vanishes mid-chord (an rtpmidid session ends, a keyboard is unplugged),
/// its held notes are released and its sustain pedal lifted: nothing is left stuck.
@Suite struct SourceGoneTests {
    @Test func notesOfAVanishedSourceAreReleasedAndOthersKeepPlaying() throws {
        let probe = try synthLiveLoop()
        // Source 20 holds a chord with the pedal down on the synth channel; source 21 holds one note.
        probe.receive(.controlChange(channel: 1, controller: 64, value: 127), fromClient: 20)
        for note: UInt8 in [60, 64, 67] { probe.receive(.noteOn(channel: 1, note: note, velocity: 100), fromClient: 20) }
        probe.receive(.noteOn(channel: 1, note: 72, velocity: 100), fromClient: 21)
        probe.runPeriods(100)
        #expect(probe.activeVoiceCounts.synth == 4)
        probe.sourceGone(client: 20)
        probe.runPeriods(Int(0.1 * 48000 / 64))  // longer than the 50 ms release
        #expect(probe.activeVoiceCounts.synth == 1, "only source 21's note is still sounding")
        probe.receive(.noteOff(channel: 1, note: 72, velocity: 0), fromClient: 21)
        probe.runPeriods(Int(0.1 * 48000 / 64))
        #expect(probe.activeVoiceCounts.synth == 0, "the pedal of the vanished source was lifted too")
    }

    /// `audiograph cc 64 127`, `audiograph note`, each a client that exits at once: the pedal they
    /// put down stays down until `audiograph cc 64 0`; a note a killed `note` left held is released.
    @Test func controllersOfAOneShotCommandOutliveIt() throws {
        let probe = try synthLiveLoop()
        let releaseTime = Int(0.1 * 48000 / 64)  // longer than the 50 ms release
        probe.receive(.noteOn(channel: 1, note: 64, velocity: 100), fromClient: 29)  // a `note` killed mid-way
        probe.runPeriods(10)
        probe.commandSenderGone(client: 29)
        probe.runPeriods(releaseTime)
        #expect(probe.activeVoiceCounts.synth == 0, "the killed command's note was released")
        probe.receive(.controlChange(channel: 1, controller: 64, value: 127), fromClient: 30)
        probe.commandSenderGone(client: 30)
        probe.receive(.noteOn(channel: 1, note: 60, velocity: 100), fromClient: 31)
        probe.runPeriods(10)
        probe.receive(.noteOff(channel: 1, note: 60, velocity: 0), fromClient: 31)
        probe.commandSenderGone(client: 31)
        probe.runPeriods(releaseTime)
        #expect(probe.activeVoiceCounts.synth == 1, "note 60 held by the pedal after both commands exited")
        probe.receive(.controlChange(channel: 1, controller: 64, value: 0), fromClient: 33)
        probe.commandSenderGone(client: 33)
        probe.runPeriods(releaseTime)
        #expect(probe.activeVoiceCounts.synth == 0, "cc 64 0 lifted the pedal")
    }
}

/// A playback device that vanishes is reopened with back-off; meanwhile MIDI keeps being applied,
/// so a note-off that arrives while the device is gone is not lost (no stuck note after it returns).
@Suite struct DeviceLossTests {
    @Test func notesReleasedWhileTheDeviceIsGoneStayReleased() throws {
        // The note-off is sent once the device is lost; the outage lasts two reopen attempts (100 ms,
        // then 200 ms of back-off). A helper thread the machine held back past the reopen would test
        // nothing: such a round says so and is tried again.
        for round in 1...3 {
            let probe = try synthLiveLoop(loseOutputAtPeriod: 50)
            probe.receive(.noteOn(channel: 1, note: 60, velocity: 100))
            probe.runPeriods(10)
            #expect(probe.activeVoiceCounts.synth == 1)
            let sentDuringOutage = Atomic<Int>(-1)  // -1 not sent, 1 during the outage, 0 after it
            let sender = Thread {
                while probe.deviceLosses == 0 { usleep(1_000) }
                probe.receive(.noteOff(channel: 1, note: 60, velocity: 0))
                sentDuringOutage.store(probe.reopens == 0 ? 1 : 0, ordering: .releasing)
            }
            sender.start()
            probe.runPeriods(41)  // the 40th of these loses the device; this returns once it is reopened
            #expect(probe.deviceLosses == 1 && probe.reopens == 1)
            while sentDuringOutage.load(ordering: .acquiring) < 0 { usleep(1_000) }
            guard sentDuringOutage.load(ordering: .acquiring) == 1 else {
                print("device loss, round \(round): the note-off was sent after the reopen (a busy machine); again")
                continue
            }
            #expect(probe.activeVoiceCounts.synth == 0, "the note-off sent during the outage was applied")
            return
        }
        Issue.record("three rounds without the note-off landing inside the outage")
    }
}

/// A source that vanishes while a flood has filled the ring to the render thread: its note-offs
/// wait for room instead of being dropped, so nothing is left stuck.
@Suite struct SourceGoneDuringAFloodTests {
    @Test func releasesWaitForRoomInAFullRing() throws {
        let probe = try synthLiveLoop()
        for note: UInt8 in [60, 64, 67] { probe.receive(.noteOn(channel: 1, note: note, velocity: 100), fromClient: 20) }
        probe.runPeriods(10)
        #expect(probe.activeVoiceCounts.synth == 3)
        // Another source fills the ring (4096 slots) and more.
        for i in 0..<5_000 { probe.receive(.controlChange(channel: UInt8(i % 16), controller: 1, value: UInt8(i % 128)), fromClient: 21) }
        // The render side starts 100 ms after the source has gone (its note-offs find the ring full),
        // then runs 2,000 periods, freeing room as it goes.
        let consumer = Thread {
            usleep(100_000)
            probe.runPeriods(2_000)
        }
        consumer.start()
        probe.sourceGone(client: 20)
        while !consumer.isFinished { usleep(10_000) }
        #expect(probe.activeVoiceCounts.synth == 0, "the vanished source's notes were released")
    }
}
