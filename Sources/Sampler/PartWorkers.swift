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

/// Hands the parts of one span to the render thread and any helper threads: the render thread
/// posts the span (its length and the parts that have voices, the busiest first), every worker
/// claims parts one at a time until none is left, and the render thread waits until the parts
/// claimed by others are finished. Which worker renders a part changes nothing in the output:
/// a part's voices are summed in its own buffer, and the parts are added up afterwards in order.
///
/// A worker first takes the parts it rendered last (their voices are still in its core's cache)
/// up to its share of the span's voices, then any other, the busiest first. Lock-free: each task has a claim word holding its span's
/// number and a claimed bit, taken by one compare-and-swap, so a helper that looks late can never
/// take a part of the next span for one of this one. The render thread never waits for a helper
/// that has not claimed anything: with no helper running, it renders every part itself. Raw
/// memory shared by the threads; atomics and plain pointers only.
struct PartTaskBoard: ~Copyable {
    /// Span number << 16 | frames: the span posted last.
    private let posted = Atomic<Int>(0)
    /// Parts of the current span finished by their workers.
    private let finished = Atomic<Int>(0)
    private let taskCount = Atomic<Int>(0)
    /// Per task: span number << 1 | 1 once claimed in that span.
    private let claims: UnsafeMutablePointer<Atomic<Int>>
    /// Per task, the part and its weight (sounding voices); written before the post that publishes them.
    private let tasks: UnsafeMutablePointer<Int>
    private let weights: UnsafeMutablePointer<Int>
    /// Each worker's fair share of the span's weight: the weight it may take of its own parts first.
    private let share = Atomic<Int>(0)
    /// Per part, the worker that rendered it last (a hint: any worker may take any part).
    private let owners: UnsafeMutablePointer<Atomic<Int>>
    private let maxParts: Int
    private let workers: Int

    init(maxParts: Int, workers: Int) {
        self.maxParts = maxParts
        self.workers = max(1, workers)
        claims = .allocate(capacity: maxParts)
        tasks = .allocate(capacity: maxParts)
        weights = .allocate(capacity: maxParts)
        weights.initialize(repeating: 0, count: maxParts)
        owners = .allocate(capacity: maxParts)
        for i in 0..<maxParts {
            (claims + i).initialize(to: Atomic(1))
            (tasks + i).initialize(to: 0)
            (owners + i).initialize(to: Atomic(0))
        }
    }

    deinit {
        claims.deinitialize(count: maxParts).deallocate()
        tasks.deallocate()
        weights.deallocate()
        owners.deinitialize(count: maxParts).deallocate()
    }

    /// The number of the span posted last (helpers watch it change).
    var span: Int { posted.load(ordering: .acquiring) >> 16 }

    /// Render thread: posts a span of `frames` (< 65536) whose parts are `parts[0..<count]`, in
    /// the order they are to be claimed, each part `c` weighing `weight[c]`; returns its number.
    /// The previous span's parts must all be finished (`waitForOthers`).
    @_noAllocation
    func post(frames: Int, parts: UnsafePointer<Int>, weight: UnsafePointer<Int>, count: Int) -> Int {
        let span = ((posted.load(ordering: .relaxed) >> 16) &+ 1) & 0x7FFF_FFFF_FFFF
        var total = 0
        for i in 0..<count {
            tasks[i] = parts[i]
            weights[i] = weight[parts[i]]
            total += weights[i]
            claims[i].store(span << 1, ordering: .relaxed)
        }
        share.store((total + workers - 1) / workers, ordering: .relaxed)
        finished.store(0, ordering: .relaxed)
        taskCount.store(count, ordering: .relaxed)
        posted.store(span << 16 | frames, ordering: .releasing)
        return span
    }

    /// Worker `worker`, having taken `taken` of the span's weight so far: a part of span `span` no
    /// one has claimed and the span's frames (nil when all are claimed or the span is over). Its
    /// own parts first while it has taken less than its share, then any, the busiest first.
    @_noAllocation
    func claim(span: Int, worker: Int, taken: inout Int) -> (part: Int, frames: Int)? {
        let current = posted.load(ordering: .acquiring)
        guard current >> 16 == span else { return nil }
        let count = taskCount.load(ordering: .relaxed)
        let firstPass = taken < share.load(ordering: .relaxed) ? 0 : 1
        for pass in firstPass..<2 {
            for i in 0..<count {
                guard claims[i].load(ordering: .relaxed) == span << 1 else { continue }
                let part = tasks[i]
                if pass == 0 && owners[part].load(ordering: .relaxed) != worker { continue }
                let (won, _) = claims[i].compareExchange(
                    expected: span << 1, desired: span << 1 | 1, successOrdering: .acquiring, failureOrdering: .relaxed)
                guard won else { continue }
                owners[part].store(worker, ordering: .relaxed)
                taken += weights[i]
                return (part, current & 0xFFFF)
            }
        }
        return nil
    }

    /// A worker finished a part it claimed (its writes happen before the render thread's merge).
    @_noAllocation
    func finish() { finished.add(1, ordering: .releasing) }

    /// Render thread, after its own claims ran out: waits until the parts helpers claimed are done.
    @_noAllocation
    func waitForOthers() {
        let count = taskCount.load(ordering: .relaxed)
        while finished.load(ordering: .acquiring) < count {}
    }
}
