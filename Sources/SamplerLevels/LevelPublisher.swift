#if canImport(Glibc)
import Glibc
#endif
import Sampler
import Synchronization

/// Gives a bank's regions their band-limited levels while it plays (live use), within the store's
/// budget, on one detached, low-priority (nice 10), non-real-time thread; the instrument is ready
/// without them. Deferred waveforms' regions (a SoundFont's samples) get their frames first, within
/// the store's sample budget (`FramePreparer`): those of the parts' start programs on the starting
/// thread, before it returns. The render thread never waits, allocates or locks for any of it: it
/// reports each note-on in the region's cell (`SamplerProgram.struckLevelRequests`) and each
/// selection of a program in the program's (`selectionStamp`), and acquires the published forms
/// at note-on (a release store each, `publishLevels`, `publishFrames`).
///
/// Each turn, the thread:
/// 1. lets go of withdrawn forms no voice reads any more (`reclaimWithdrawnLevels`);
/// 2. reads the frames of deferred regions struck unprepared (their notes were silent), then of
///    the program a part selected most recently, one region a turn (`FramePreparer`);
/// 3. builds the levels of the regions struck since, the most recent first (a note struck before
///    its region's levels are published plays the original frames with the 4-point cubic for its
///    whole life; the next one on it plays band-limited); when they do not fit, withdraws the
///    levels used least recently (never those used more recently than the struck region:
///    `FormEviction`) until they do;
/// 4. while nothing struck waits, builds the regions not struck yet that fit without withdrawing
///    anything, the parts' start programs first (`finished` runs when that pass is over).
///
/// Then it sleeps `pollMilliseconds` if there was nothing to do. It runs until `stop()` (or the
/// publisher goes).
public final class LevelPublisher: Sendable {
    public let programs: [SamplerProgram]
    private let job: Job

    /// Where the levels come from (and the budget they are charged to).
    public var store: LevelStore { job.store }

    /// Regions of the bank whose levels are not published (any thread).
    public var regionsAwaitingLevels: Int { programs.regionsAwaitingLevels }

    /// Deferred regions of the bank with neither frames nor levels (any thread).
    public var regionsUnprepared: Int { programs.reduce(0) { $0 + $1.regionsUnprepared } }

    /// What reading the start programs' frames did, before `start` returned.
    public let startPreparation: FrameReport

    /// Control thread: reads the frames of the parts' start programs' deferred regions (nothing
    /// for a bank without any), then starts the builder thread for `bank`. `finished` runs on it when every
    /// region not struck yet has levels or no more fit without withdrawing any (with what that
    /// pass did); `log` gets a line for each struck region whose levels can never fit the budget,
    /// and each region whose frames cannot be read or fit.
    /// Without `prefetch`, only struck regions are built (step 3 skipped: a General MIDI
    /// SoundFont's levels would take gigabytes, and a song plays a small part of them).
    /// Builds on the calling thread, once, if no thread can be started.
    @discardableResult
    public static func start(
        _ bank: ProgramBank, store: LevelStore = .shared, pollMilliseconds: Int = 5, prefetch: Bool = true,
        finished: @escaping @Sendable (LevelReport) -> Void = { _ in }, log: @escaping @Sendable (String) -> Void = { _ in }
    ) -> LevelPublisher {
        var order: [Int] = []
        for channel in 0..<ProgramBank.partCount {
            if case .sampler(let index) = bank.startProgram(channel: channel), !order.contains(index) { order.append(index) }
        }
        let startCount = order.count
        order += bank.programs.indices.filter { !order.contains($0) }
        let job = Job(
            programs: order.map { bank.programs[$0] }, store: store, poll: pollMilliseconds, prefetch: prefetch, log: log, finished: finished)
        let prepared = job.frames.prepareStart(count: startCount)
        let context = Unmanaged.passRetained(job).toOpaque()
        var thread = pthread_t()
        // 1 MiB, not the default 8: under `play`'s mlockall(MCL_FUTURE) a stack is resident whole,
        // and the builder's working memory is on the heap (FFT buffers, frames).
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackBytes)
        let started = pthread_create(&thread, &attributes, { raw in
            let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
            // On Linux a thread has its own nice value: this lowers the builder only.
            _ = nice(10)
            job.run()
            return nil
        }, context)
        if started == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<Job>.fromOpaque(context).release()
            job.turn()
            job.prefetchAll()
        }
        return LevelPublisher(programs: job.programs, job: job, startPreparation: prepared)
    }

    static let stackBytes = 1 << 20

    private init(programs: [SamplerProgram], job: Job, startPreparation: FrameReport) {
        self.programs = programs
        self.job = job
        self.startPreparation = startPreparation
    }

    /// Any thread: ends the builder thread after the region it is building (it keeps the programs
    /// alive until then).
    public func stop() { job.stopped.store(true, ordering: .relaxed) }

    deinit { stop() }

    /// What the builder thread owns: the programs, the store, the callbacks and its own state.
    /// @unchecked Sendable: `frames`, `notedUnfit` and `prefetching` are touched by the builder
    /// thread only (or the starting thread, before it starts or when there is none); the rest is
    /// immutable or atomic.
    private final class Job: @unchecked Sendable {
        let programs: [SamplerProgram]
        let store: LevelStore
        let poll: Int
        let log: @Sendable (String) -> Void
        let finished: @Sendable (LevelReport) -> Void
        let stopped = Atomic<Bool>(false)
        /// Reads deferred regions' frames.
        let frames: FramePreparer
        /// Struck regions already said not to fit.
        private var notedUnfit = Set<RegionKey>()
        private var prefetching = true
        private var prefetchReport: LevelReport

        init(programs: [SamplerProgram], store: LevelStore, poll: Int, prefetch: Bool, log: @escaping @Sendable (String) -> Void,
             finished: @escaping @Sendable (LevelReport) -> Void) {
            self.programs = programs
            self.store = store
            self.poll = poll
            prefetching = prefetch
            self.log = log
            self.finished = finished
            frames = FramePreparer(programs: programs, store: store, log: log)
            prefetchReport = LevelReport(budgetBytes: store.budget.limitBytes)
        }

        func run() {
            while !stopped.load(ordering: .relaxed) {
                if !turn() { usleep(UInt32(max(1, poll)) * 1000) }
            }
        }

        /// One turn; false when there was nothing to do.
        @discardableResult
        func turn() -> Bool {
            for program in programs { program.reclaimWithdrawnLevels() }
            // Gathered apart: a levels request holds its region's frames, which the frames pass may withdraw.
            if frames.prepareStruck(struckRequests(.plain)) || frames.prepareSelected() { return true }
            if buildStruck(struckRequests(.levels)) { return true }
            guard prefetching else { return false }
            if prefetchOne() { return true }
            prefetching = false
            finished(prefetchReport)
            return false
        }

        /// Without a thread: every region that fits, at once.
        func prefetchAll() {
            while prefetching, prefetchOne() {}
            if prefetching { finished(prefetchReport) }
            prefetching = false
        }

        /// The struck regions' requests of `kind`, with their program and the stamp of their last strike.
        private func struckRequests(_ kind: FormKind) -> [(program: Int, request: LevelRequest, stamp: UInt64)] {
            var struck: [(program: Int, request: LevelRequest, stamp: UInt64)] = []
            for (p, program) in programs.enumerated() {
                for request in program.struckLevelRequests where request.kind == kind {
                    struck.append((p, request, program.lastStrike(region: request.region)))
                }
            }
            return struck
        }

        /// Builds (or shares) the levels of the struck regions, the most recently struck first
        /// across all programs (so that an older strike never displaces a newer one); true if it
        /// published any.
        private func buildStruck(_ struck: [(program: Int, request: LevelRequest, stamp: UInt64)]) -> Bool {
            var published = false
            for (p, request, stamp) in struck.sorted(by: { $0.stamp > $1.stamp }) {
                switch store.levels(for: request) {
                case .levels(let levels):
                    published = programs[p].publishLevels(levels, for: request) || published
                case .doesNotFit(let bytes) where bytes > store.budget.limitBytes:
                    if notedUnfit.insert(RegionKey(program: p, region: request.region)).inserted {
                        log("band-limited levels: a region of \(request.waveform.frameCount) frames needs \(LevelBudget.describe(bytes)), "
                            + "more than the whole \(LevelBudget.describe(store.budget.limitBytes)) level budget (--level-memory): "
                            + "it plays without band-limiting")
                    }
                case .doesNotFit(let bytes):
                    FormEviction.withdraw(.levels, from: programs, freeing: bytes, budget: store.budget, olderThan: stamp)
                }
            }
            return published
        }

        /// Builds the next region not struck yet whose levels fit without withdrawing any; false
        /// when none is left.
        private func prefetchOne() -> Bool {
            for program in programs {
                for request in program.levelRequests
                where request.kind == .levels && store.cost(of: request) <= store.budget.limitBytes - store.budget.usedBytes {
                    if case .levels(let levels) = store.levels(for: request), program.publishLevels(levels, for: request) {
                        prefetchReport.count(levels, for: request, margin: true)
                        return true
                    }
                }
            }
            for program in programs { prefetchReport.unfit += program.regionsAwaitingLevels }
            return false
        }
    }
}

extension Sequence<SamplerProgram> {
    /// Regions of these programs whose band-limited levels are not published yet (any thread).
    public var regionsAwaitingLevels: Int { reduce(0) { $0 + $1.regionsAwaitingLevels } }
}
