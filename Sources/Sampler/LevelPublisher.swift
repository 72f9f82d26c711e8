#if canImport(Glibc)
import Glibc
#endif

/// Builds a bank's band-limited levels in the background while it already plays (live use), so
/// that the instrument is ready without them: one detached, low-priority (nice 10), non-real-time
/// thread builds region after region — the parts' start programs first — and publishes each as
/// it is done (`SamplerProgram.buildAllLevels`: a release store per region, which the render
/// thread acquires at note-on). A note started before its region is published reads the original
/// frames with the 4-point cubic for its whole life; the next note on that region plays
/// band-limited. The render thread never waits, allocates or locks for any of it.
///
/// Whoever submits a bank later (`SamplerInstrument.submit`) starts one for it the same way.
public final class LevelPublisher: Sendable {
    public let programs: [SamplerProgram]

    /// Regions of the bank whose levels are still being built (any thread).
    public var regionsAwaitingLevels: Int { programs.regionsAwaitingLevels }

    /// Control thread: starts building every region of `bank` not built yet; calls `finished`
    /// on the builder thread when all are published. Builds on the calling thread if no thread
    /// can be started.
    @discardableResult
    public static func start(_ bank: ProgramBank, finished: @escaping @Sendable () -> Void = {}) -> LevelPublisher {
        var order: [Int] = []
        for channel in 0..<ProgramBank.partCount {
            if case .sampler(let index) = bank.startProgram(channel: channel), !order.contains(index) { order.append(index) }
        }
        order += bank.programs.indices.filter { !order.contains($0) }
        let publisher = LevelPublisher(programs: order.map { bank.programs[$0] })
        let job = Job(programs: publisher.programs, finished: finished)
        let context = Unmanaged.passRetained(job).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { raw in
            let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
            // On Linux a thread has its own nice value: this lowers the builder only.
            _ = nice(10)
            job.run()
            return nil
        }, context)
        if started == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<Job>.fromOpaque(context).takeRetainedValue().run()
        }
        return publisher
    }

    private init(programs: [SamplerProgram]) {
        self.programs = programs
    }

    /// What the builder thread owns: the programs (kept alive until built) and the callback.
    private final class Job: Sendable {
        let programs: [SamplerProgram]
        let finished: @Sendable () -> Void

        init(programs: [SamplerProgram], finished: @escaping @Sendable () -> Void) {
            self.programs = programs
            self.finished = finished
        }

        func run() {
            for program in programs { program.buildAllLevels() }
            finished()
        }
    }
}

extension Sequence<SamplerProgram> {
    /// Regions of these programs whose band-limited levels are not published yet (any thread);
    /// a region programs share counts once.
    public var regionsAwaitingLevels: Int {
        var byStorage: [ObjectIdentifier: (program: SamplerProgram, regions: Set<Int>)] = [:]
        for program in self {
            var entry = byStorage[ObjectIdentifier(program.storage)] ?? (program, [])
            entry.regions.formUnion(program.levelRegions)
            // The program made last sees every region made before it.
            if program.regionTable.count > entry.program.regionTable.count { entry.program = program }
            byStorage[ObjectIdentifier(program.storage)] = entry
        }
        return byStorage.values.reduce(0) { $0 + $1.program.awaiting($1.regions) }
    }
}
