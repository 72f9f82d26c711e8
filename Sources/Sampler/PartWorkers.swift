import Synchronization

/// What one render worker needs to render one voice at a time: the chunk scratch the voices read
/// and write, and the array SoundFont voices evaluate their modulators into. Worker 0 is the
/// render thread; workers 1… are helper threads an offline render may add (`PartTaskBoard`).
/// Plain pointers, allocated by the instrument's `init`, freed by its `deinit`.
struct WorkerScratch {
    let left: UnsafeMutablePointer<Float>
    let right: UnsafeMutablePointer<Float>
    /// Zeros, filtered in place of the missing right channel of a mono voice.
    let filterDiscard: UnsafeMutablePointer<Float>
    /// Per-frame envelope levels while the envelope moves.
    let levels: UnsafeMutablePointer<Float>
    let generators: UnsafeMutablePointer<Double>

    init(chunkFrames: Int, generatorCount: Int) {
        left = .allocate(capacity: chunkFrames)
        right = .allocate(capacity: chunkFrames)
        filterDiscard = .allocate(capacity: chunkFrames)
        levels = .allocate(capacity: chunkFrames)
        for buffer in [left, right, filterDiscard, levels] { buffer.initialize(repeating: 0, count: chunkFrames) }
        generators = .allocate(capacity: generatorCount)
        generators.initialize(repeating: 0, count: generatorCount)
    }

    func deallocate() {
        for buffer in [left, right, filterDiscard, levels] { buffer.deallocate() }
        generators.deallocate()
    }
}

/// Hands the tasks of one span (voice groups, `SpanMemory`) to the render thread and any helper
/// threads: the render thread posts the span (its length and the tasks, the busiest first), every
/// worker claims tasks one at a time until none is left, and the render thread waits for each task
/// claimed by others as it merges (`waitFor`). Which worker renders a task changes nothing in the
/// output: each sums its voices in its own buffer, and the sums are added up afterwards in order.
///
/// A worker first takes the tasks it rendered last (their voices are still in its core's cache)
/// up to its share of the span's voices, then any other, the busiest first. Lock-free: each task
/// has a claim word holding its span's number and a claimed bit, taken by one compare-and-swap,
/// so a helper that looks late can never take a task of the next span for one of this one. The
/// render thread never waits for a helper that has not claimed anything: with no helper running,
/// it renders every task itself. Raw memory shared by the threads; atomics and plain pointers only.
struct PartTaskBoard: ~Copyable {
    /// Span number << 16 | frames: the span posted last.
    private let posted = Atomic<Int>(0)
    private let taskCount = Atomic<Int>(0)
    /// Per task: span number << 1 | 1 once claimed in that span.
    private let claims: UnsafeMutablePointer<Atomic<Int>>
    /// Per task, what it is (a voice group of a part) and its weight (sounding voices); written
    /// before the post that publishes them. Atomic (relaxed) because a late helper may look at a
    /// task while the next span's is written, before its claim fails.
    private let tasks: UnsafeMutablePointer<Atomic<Int>>
    private let weights: UnsafeMutablePointer<Int>
    /// Each worker's fair share of the span's weight: the weight it may take of its own parts first.
    private let share = Atomic<Int>(0)
    /// Per task kind (a group), the worker that rendered it last (a hint: any worker may take any).
    private let owners: UnsafeMutablePointer<Atomic<Int>>
    /// Per task kind, the number of the span in which it was last finished.
    private let done: UnsafeMutablePointer<Atomic<Int>>
    private let maxTasks: Int
    private let workers: Int

    init(maxTasks: Int, workers: Int) {
        self.maxTasks = maxTasks
        self.workers = max(1, workers)
        claims = .allocate(capacity: maxTasks)
        tasks = .allocate(capacity: maxTasks)
        weights = .allocate(capacity: maxTasks)
        weights.initialize(repeating: 0, count: maxTasks)
        owners = .allocate(capacity: maxTasks)
        done = .allocate(capacity: maxTasks)
        for i in 0..<maxTasks {
            (claims + i).initialize(to: Atomic(1))
            (tasks + i).initialize(to: Atomic(0))
            (owners + i).initialize(to: Atomic(0))
            (done + i).initialize(to: Atomic(-1))
        }
    }

    deinit {
        claims.deinitialize(count: maxTasks).deallocate()
        tasks.deinitialize(count: maxTasks).deallocate()
        weights.deallocate()
        owners.deinitialize(count: maxTasks).deallocate()
        done.deinitialize(count: maxTasks).deallocate()
    }

    /// The number of the span posted last (helpers watch it change).
    var span: Int { posted.load(ordering: .acquiring) >> 16 }

    /// Render thread: posts a span of `frames` (< 65536) whose tasks are `tasks[0..<count]` (each
    /// < `maxTasks`), in the order they are to be claimed, task `t` weighing `weight[t]`;
    /// returns its number. The previous span's tasks must all be finished (`waitFor`).
    @_noAllocation
    func post(frames: Int, tasks list: UnsafePointer<Int>, weight: UnsafePointer<Int>, count: Int) -> Int {
        let span = ((posted.load(ordering: .relaxed) >> 16) &+ 1) & 0x7FFF_FFFF_FFFF
        var total = 0
        for i in 0..<count {
            tasks[i].store(list[i], ordering: .relaxed)
            weights[i] = weight[list[i]]
            total += weights[i]
            claims[i].store(span << 1, ordering: .relaxed)
        }
        share.store((total + workers - 1) / workers, ordering: .relaxed)
        taskCount.store(count, ordering: .relaxed)
        posted.store(span << 16 | frames, ordering: .releasing)
        return span
    }

    /// Worker `worker`, having taken `taken` of the span's weight so far: a task of span `span` no
    /// one has claimed and the span's frames (nil when all are claimed or the span is over). Its
    /// own tasks first while it has taken less than its share, then any, the busiest first.
    @_noAllocation
    func claim(span: Int, worker: Int, taken: inout Int) -> (task: Int, frames: Int)? {
        let current = posted.load(ordering: .acquiring)
        guard current >> 16 == span else { return nil }
        let count = taskCount.load(ordering: .relaxed)
        let firstPass = taken < share.load(ordering: .relaxed) ? 0 : 1
        for pass in firstPass..<2 {
            for i in 0..<count {
                guard claims[i].load(ordering: .relaxed) == span << 1 else { continue }
                let task = tasks[i].load(ordering: .relaxed)
                if pass == 0 && owners[task].load(ordering: .relaxed) != worker { continue }
                let (won, _) = claims[i].compareExchange(
                    expected: span << 1, desired: span << 1 | 1, successOrdering: .acquiring, failureOrdering: .relaxed)
                guard won else { continue }
                owners[task].store(worker, ordering: .relaxed)
                taken += weights[i]
                return (task, current & 0xFFFF)
            }
        }
        return nil
    }

    /// A worker finished task `task` of span `span`, which it claimed (its writes happen before
    /// the render thread's merge).
    @_noAllocation
    func finish(task: Int, span: Int) {
        done[task].store(span, ordering: .releasing)
    }

    /// Render thread, after its own claims ran out: waits until task `task` of span `span` is
    /// finished, whoever claimed it.
    @_noAllocation
    func waitFor(task: Int, span: Int) {
        while done[task].load(ordering: .acquiring) != span {}
    }
}
