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
/// Lock-free: a claim is a compare-and-swap on one word holding the span's number and length,
/// its part count and the next part to claim, so a helper that looks late can never take a
/// part of the next span for one of this one. The render thread never waits for a helper that
/// has not claimed anything: with no helper running, it renders every part itself. Raw memory
/// shared by the threads; atomics and plain pointers only.
struct PartTaskBoard: ~Copyable {
    /// Span number << 32 | frames << 16 | part count << 8 | next part to claim.
    private let claims = Atomic<Int>(0)
    /// Parts of the current span finished by their workers.
    private let finished = Atomic<Int>(0)
    /// The span's parts in claiming order, written before the post that publishes them.
    private let tasks: UnsafeMutablePointer<Int>

    init(maxParts: Int) {
        precondition(maxParts < 256)
        tasks = .allocate(capacity: maxParts)
        tasks.initialize(repeating: 0, count: maxParts)
    }

    deinit { tasks.deallocate() }

    /// The number of the span posted last (helpers watch it change).
    var span: Int { claims.load(ordering: .acquiring) >> 32 }

    /// Render thread: posts a span of `frames` (< 65536) whose parts are `parts[0..<count]`, in
    /// the order they are to be claimed; returns its number. The previous span's parts must all
    /// be finished (`waitForOthers`).
    @_noAllocation
    func post(frames: Int, parts: UnsafePointer<Int>, count: Int) -> Int {
        for i in 0..<count { tasks[i] = parts[i] }
        finished.store(0, ordering: .relaxed)
        let span = ((claims.load(ordering: .relaxed) >> 32) &+ 1) & 0x7FFF_FFFF
        claims.store(span << 32 | frames << 16 | count << 8, ordering: .releasing)
        return span
    }

    /// Any worker: the next part of span `span` and the span's frames (nil when all are claimed
    /// or the span is over).
    @_noAllocation
    func claim(span: Int) -> (part: Int, frames: Int)? {
        var current = claims.load(ordering: .acquiring)
        while current >> 32 == span {
            let count = (current >> 8) & 0xFF, index = current & 0xFF
            guard index < count else { return nil }
            let (exchanged, original) = claims.compareExchange(
                expected: current, desired: current &+ 1, successOrdering: .acquiring, failureOrdering: .acquiring)
            if exchanged { return (tasks[index], (current >> 16) & 0xFFFF) }
            current = original
        }
        return nil
    }

    /// A worker finished a part it claimed (its writes happen before the render thread's merge).
    @_noAllocation
    func finish() { finished.add(1, ordering: .releasing) }

    /// Render thread, after its own claims ran out: waits until the parts helpers claimed are done.
    @_noAllocation
    func waitForOthers() {
        let count = (claims.load(ordering: .relaxed) >> 8) & 0xFF
        while finished.load(ordering: .acquiring) < count {}
    }
}
