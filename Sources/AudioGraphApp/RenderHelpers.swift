#if canImport(Glibc)
import Glibc
#endif
import Engine
import Foundation
import Synchronization

/// The helper threads of an offline render: `engine.configuration.samplerWorkers` − 1 threads
/// that render sampler parts beside the rendering thread (`AudioEngine.helpSampler`), from
/// `start` until `stop`. The rendering thread never waits for a helper that has not claimed a
/// part, so a helper that is late (the machine busy) only costs speed, never output: the render
/// is the same byte for byte with any number of them.
///
/// Between spans a helper does the render's idle work (building levels ahead, writing the file)
/// while there is some, else spins on the posted span number (the next one usually follows within
/// tens of microseconds, the next block's first after the block's own work: meters, level schedule), then
/// yields, then sleeps in short naps, so an idle or stalled render does not hold a core.
final class RenderHelpers: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let exited: DispatchGroup

    /// Spins before the first yield, and yields before the first nap. The spins outlast a block
    /// boundary, so the helper is awake for the next block's first span (docs/SOUNDFONTS.md).
    static let spins = 200_000
    static let yields = 200
    static let napMicroseconds: UInt32 = 200

    /// Work a helper does when no span waits for it, as long as it returns true (levels to build ahead).
    private let idleWork: (@Sendable () -> Bool)?

    /// Starts the helpers for `engine` (none when it has one sampler worker).
    init(engine: AudioEngine, idleWork: (@Sendable () -> Bool)? = nil) {
        self.idleWork = idleWork
        exited = DispatchGroup()
        let shared = UncheckedEngine(engine)
        for worker in 1..<max(1, engine.configuration.samplerWorkers) {
            exited.enter()
            let thread = Thread { [self] in
                self.run(shared.engine, worker: worker)
                self.exited.leave()
            }
            thread.stackSize = 512 << 10
            thread.name = "render helper \(worker)"
            thread.start()
        }
    }

    /// Stops the helpers and waits until they have left the engine.
    func stop() {
        stopped.store(true, ordering: .releasing)
        exited.wait()
    }

    private func run(_ engine: AudioEngine, worker: Int) {
        var seen = engine.postedSamplerSpan, idle = 0
        let idleWork = idleWork ?? { false }  // bound once: an optional bound at every turn is retained at every turn
        while !stopped.load(ordering: .relaxed) {
            let span = engine.postedSamplerSpan
            if span != seen {
                seen = span
                idle = 0
                engine.helpSampler(span: span, worker: worker)
                continue
            }
            if idleWork() {
                idle = 0
                continue
            }
            idle += 1
            if idle > Self.spins + Self.yields {
                usleep(Self.napMicroseconds)
            } else if idle > Self.spins {
                sched_yield()
            }
        }
    }
}

/// The engine handed to the helper threads: they touch only its sampler's part claims, which
/// are made for sharing (`SamplerInstrument.help`).
private struct UncheckedEngine: @unchecked Sendable {
    let engine: AudioEngine
    init(_ engine: AudioEngine) { self.engine = engine }
}
