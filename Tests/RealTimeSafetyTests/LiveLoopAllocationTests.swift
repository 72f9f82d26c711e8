import AudioGraphApp
import Engine
import Foundation
import LiveTestSupport
import MIDI
import XCTest

/// The live loop's audio-thread work (event ring, MIDI placement, render with a file input,
/// output) allocates nothing either, with notes arriving every period through the inbox and a
/// flood every tenth (deferred, coalesced, stale note-ons skipped: `PeriodEvents`).
final class LiveLoopAllocationTests: XCTestCase {
    func testLivePeriodsDoNotAllocate() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        var loader = try InstrumentLoader(instrumentPath: "\(repository)/Instruments/default.json")
        loader.playsDemo = true  // the demo's loops: the bundled instrument has none of its own
        loader.assignments = ["loop.beat.play=on", "mic.effect=pitchshift", "synth.voices=32", "synth.release=1"]
        let engine = try loader.makeEngine(configuration: EngineConfiguration(sampleRate: 48000, maxFrames: 64))
        let input = (0..<48000).map { Float(0.3 * sin(2 * Double.pi * 220 * Double($0) / 48000)) }
        let probe = try LiveLoopProbe(engine: engine, periodFrames: 64, input: input)
        func period(_ n: Int) {
            let note = UInt8(30 + n % 70)
            probe.receive(.noteOn(channel: UInt8(n % 2), note: note, velocity: 100), fromClient: UInt8(20 + n % 4))
            probe.receive(.noteOff(channel: UInt8(n % 2), note: note &- 20, velocity: 0), fromClient: UInt8(20 + n % 4))
            probe.receive(.controlChange(channel: 0, controller: 64, value: n % 3 == 0 ? 127 : 0))
            if n % 50 == 0 { probe.receive(.system(.masterVolume(UInt16(12_000 + n % 4000)))) }
            if n % 500 == 250 { probe.receive(.system(.rhythmPart(channel: 5, map: UInt8(n / 500 % 2)))) }
            for i in 0..<(n % 10 == 0 ? 200 : 0) {
                let channel = UInt8(i % 16)
                probe.receive(i % 4 == 0 ? .noteOn(channel: channel, note: UInt8(i % 128), velocity: 90)
                              : i % 4 == 1 ? .pitchBend(channel: channel, value: Int16(i * 40 - 4000))
                              : .controlChange(channel: channel, controller: 1, value: UInt8(i % 128)))
            }
            probe.runPeriods(1)
        }
        for n in 0..<300 { period(n) }
        let mallocs = AllocationCounter.count {
            for n in 0..<10_000 { period(n) }
        }
        XCTAssertEqual(mallocs, 0, "the live loop allocated \(mallocs) times in 10,000 periods")
        XCTAssertGreaterThan(probe.controller.meters.activeVoices, 32)
    }
}
