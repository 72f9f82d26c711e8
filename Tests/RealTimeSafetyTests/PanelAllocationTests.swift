import AudioGraphApp
import Engine
import Foundation
import LiveTestSupport
import MallocInterposerSwift
import PanelProtocol
import Synchronization
import XCTest

/// The render thread allocates nothing while the web panel serves. The panel's work runs on a
/// thread of its own, as fast as it can: the state reader and encoder every open page gets 25 times
/// a second (status snapshot → `PanelState` → JSON frame), a fader set, test-keyboard notes and a
/// panic through the same backend (`ServicePanelBackend` over `LiveLoopProbe.service`, what
/// `play --panel` uses). That thread allocates plenty; the count is per thread, so only the render
/// thread's allocations are judged.
final class PanelAllocationTests: XCTestCase {
    func testRenderThreadDoesNotAllocateWhileThePanelServes() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        var loader = try InstrumentLoader(instrumentPath: "\(repository)/Instruments/default.json")
        loader.playsDemo = true
        loader.assignments = ["loop.beat.play=on", "mic.effect=fft", "synth.follow=on", "synth.voices=32"]
        let engine = try loader.makeEngine(configuration: EngineConfiguration(sampleRate: 48000, maxFrames: 64))
        let input = (0..<48000).map { Float(0.3 * sin(2 * Double.pi * 220 * Double($0) / 48000)) }
        let probe = try LiveLoopProbe(engine: engine, periodFrames: 64, input: input)
        let backend = ServicePanelBackend(service: probe.service, startupMilliseconds: nil)
        let gain = try XCTUnwrap(backend.parameters.first { $0.name == "bus.synth.gain" })

        let counting = Atomic<Int>(0)  // 0: warming up, 1: counting, 2: render thread finished
        let frames = Atomic<Int>(0)
        let panelErrors = Atomic<Int>(0)
        let warmedUp = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        // The render thread: warms up, then renders at least 10,000 periods, and on until the panel
        // has built 200 frames meanwhile (so the two really overlapped, however the threads are scheduled).
        let render = Thread {
            ThreadAllocations.watchCurrentThread()
            func period(_ n: Int) {
                if n % 8 == 0 { probe.receive(.noteOn(channel: 0, note: UInt8(40 + n % 40), velocity: 100)) }
                if n % 8 == 4 { probe.receive(.noteOff(channel: 0, note: UInt8(40 + (n - 4) % 40), velocity: 0)) }
                probe.runPeriods(1)
            }
            for n in 0..<300 { period(n) }
            warmedUp.signal()
            while counting.load(ordering: .acquiring) == 0 { usleep(1000) }
            var n = 0
            while n < 10_000 || (frames.load(ordering: .relaxed) < 200 && n < 1_000_000) {
                period(n)
                n += 1
            }
            counting.store(2, ordering: .releasing)
            finished.signal()
        }
        render.name = "render"
        let panel = Thread {
            _ = PanelFrames.hello(parameters: backend.parameters)
            var n = 0
            while counting.load(ordering: .acquiring) != 2 {
                let frame = PanelFrames.state(backend.state())
                if frame.contains(#""type":"state""#) { frames.add(1, ordering: .relaxed) }
                do throws(PanelError) {
                    try backend.set(gain.name, value: gain.min + Double(n % 50) / 50 * (gain.max - gain.min))
                    if n % 4 == 0 { try backend.note(channel: 0, note: 60 + n % 12, velocity: n % 8 == 0 ? 90 : 0) }
                    if n % 100 == 99 { try backend.panic() }
                } catch {
                    panelErrors.add(1, ordering: .relaxed)  // the control ring was full: refused, as a page would be told
                }
                n += 1
            }
        }
        panel.name = "panel"

        render.start()
        warmedUp.wait()
        panel.start()
        let counts = ThreadAllocations.count {
            counting.store(1, ordering: .releasing)
            finished.wait()
        }
        XCTAssertEqual(counts.watched, 0, "the render thread allocated \(counts.watched) times while the panel served")
        XCTAssertGreaterThan(counts.others, 0, "no allocation seen on the panel's thread: the interposer's hook is not counting")
        XCTAssertGreaterThanOrEqual(frames.load(ordering: .relaxed), 200, "the panel built too few state frames meanwhile")
        print("panel state frames built while the render thread was counted: \(frames.load(ordering: .relaxed)); refused (ring full): \(panelErrors.load(ordering: .relaxed))")
    }
}

/// Counts allocations per thread: the interposer calls the hook on the allocating thread, which
/// compares itself with the watched one (no allocation, no lock: it runs inside malloc).
enum ThreadAllocations {
    private static let watched = Atomic<UInt>(0)
    private static let onWatched = Atomic<Int>(0)
    private static let elsewhere = Atomic<Int>(0)

    static func watchCurrentThread() { watched.store(UInt(pthread_self()), ordering: .releasing) }

    /// Allocations on the watched thread and on all others while `body` runs.
    static func count(_ body: () -> Void) -> (watched: Int, others: Int) {
        onWatched.store(0, ordering: .relaxed)
        elsewhere.store(0, ordering: .relaxed)
        MallocInterposerSwift.initialize()
        MallocInterposerSwift.setAllocationHook { _ in
            if UInt(pthread_self()) == ThreadAllocations.watched.load(ordering: .relaxed) {
                ThreadAllocations.onWatched.add(1, ordering: .relaxed)
            } else {
                ThreadAllocations.elsewhere.add(1, ordering: .relaxed)
            }
        }
        MallocInterposerSwift.hook()
        body()
        MallocInterposerSwift.unhook()
        MallocInterposerSwift.setAllocationHook(nil)
        return (onWatched.load(ordering: .relaxed), elsewhere.load(ordering: .relaxed))
    }
}
