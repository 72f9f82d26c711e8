import AudioGraphApp
import Engine
import Foundation
import LiveTestSupport
import MIDI
import Synchronization
import XCTest

/// The live loop's threads at once, as `play` runs them: the render thread rendering periods (and,
/// after the device is lost, a second thread running the outage recovery on the same objects, as
/// `play`'s control thread does, before the render thread takes over again), the sequencer thread
/// delivering notes, the main thread's control work, and the control socket answering
/// `status`/`set`/`get` in a tight loop. Functionally it checks that the loss is
/// recovered and every request answered; its real purpose is `scripts/tsan-live`, which runs it
/// under ThreadSanitizer, where any unsynchronised access between those threads is a report.
final class LiveLoopRaceTests: XCTestCase {
    func testControlSocketHammeredThroughADeviceLoss() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        var loader = try InstrumentLoader(instrumentPath: "\(repository)/Instruments/default.json")
        loader.assignments = ["loop.beat.play=on", "mic.effect=fft", "synth.follow=on", "synth.voices=16", "sampler.voices=16"]
        let engine = try loader.makeEngine(configuration: EngineConfiguration(sampleRate: 48000, maxFrames: 64))
        let input = (0..<4800).map { Float(0.3 * sin(2 * Double.pi * 220 * Double($0) / 48000)) }
        let periods = Int(ProcessInfo.processInfo.environment["LIVE_RACE_PERIODS"] ?? "") ?? 3000
        let probe = try LiveLoopProbe(engine: engine, periodFrames: 64, input: input, loseOutputAtPeriod: periods / 3)
        let controller = probe.controller  // the other threads' view; the engine now belongs to the probe's loop

        let done = Atomic<Bool>(false)
        let requests = Atomic<Int>(0)
        let badAnswers = Atomic<Int>(0)
        let group = DispatchGroup()
        func spawn(_ name: String, _ body: @escaping @Sendable () -> Void) {
            group.enter()
            let thread = Thread {
                body()
                group.leave()
            }
            thread.name = name
            thread.start()
        }
        spawn("control-socket") {
            let script = ["status --json", "set synth.release=0.5 mic.mix=0.8", "get synth.release", "status",
                          "set mic.effect=delay", "set mic.effect=fft", "get mic.effect"]
            var n = 0
            while !done.load(ordering: .relaxed) {
                let answer = probe.controlRequest(script[n % script.count])
                if !answer.hasPrefix("ok") { badAnswers.wrappingAdd(1, ordering: .relaxed) }
                n += 1
                requests.store(n, ordering: .relaxed)
            }
        }
        spawn("sequencer") {
            var n = 0
            while !done.load(ordering: .relaxed) {
                let note = UInt8(40 + n % 40)
                probe.receive(.noteOn(channel: UInt8(n % 2), note: note, velocity: 90))
                probe.receive(.noteOff(channel: UInt8(n % 2), note: note, velocity: 0))
                n += 1
                usleep(5000)
            }
        }
        spawn("main") {
            while !done.load(ordering: .relaxed) {
                controller.performControlWork()
                usleep(2000)
            }
        }
        probe.runPeriods(periods)  // this (the test's) thread is the audio thread
        // A count, not a time: on a busy machine the other threads may have barely run while the
        // periods were rendered, so the audio thread goes on until the socket has answered enough.
        var extra = 0
        while requests.load(ordering: .relaxed) < 200, extra < 1_000_000 {
            probe.runPeriods(64)
            extra += 64
        }
        done.store(true, ordering: .relaxed)
        group.wait()

        XCTAssertEqual(probe.deviceLosses, 1)
        XCTAssertEqual(probe.reopens, 1)
        XCTAssertGreaterThanOrEqual(requests.load(ordering: .relaxed), 200, "the control socket side barely ran")
        XCTAssertEqual(badAnswers.load(ordering: .relaxed), 0)
        XCTAssertTrue(probe.controlRequest("get synth.release").hasSuffix("0.5 s"), probe.controlRequest("get synth.release"))
    }
}
