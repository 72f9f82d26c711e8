import DSP

#if canImport(Glibc)
import Glibc
#endif

/// The memory of rendering one span (the frames between two events) group by group
/// (`SamplerInstrument+Parts`): a part's sounding voices are rendered in *groups* of at most
/// `groupSize`, in slot order, each group through the whole span into a sub-mix of its own; a
/// part's first group renders straight into the part's sub-mix, the others (*extra* groups) into
/// theirs, added to it afterwards in order. The grouping depends on the voices alone, never on how
/// many threads render, so neither does the output.
///
/// Group `c` < 16 is part `c`'s first group; extra groups follow. Per group: its part, its slice
/// of the part's slot list, its sub-mix and SoundFont send sums (`spanFrames` each) and what its
/// voices did per chunk (`ChunkFlags`, each group's on cache lines of its own: groups rendered at
/// once by different threads would otherwise pass one line back and forth). Allocated by the
/// instrument's `init` (control thread), freed by its `deinit`; plain pointers for the render
/// thread and its helpers, each group written only by the worker that claimed it.
struct SpanMemory {
    /// Voices per group: enough that a group's work outweighs handing it to another thread, few
    /// enough that the busiest part of a dense song splits between threads.
    static let groupSize = 8

    let spanFrames: Int
    let maxChunks: Int
    let maxGroups: Int
    let voiceSlots: Int
    let parts: Int
    /// Per part: its sounding voices' slots in the span (`voiceSlots` each), and how many.
    let slots: UnsafeMutablePointer<Int>
    let slotCounts: UnsafeMutablePointer<Int>
    /// Per part: the first of its extra groups, and how many.
    let extraStart: UnsafeMutablePointer<Int>
    let extraCount: UnsafeMutablePointer<Int>
    /// Per group: its part, the first of its voices in the part's slot list, and how many voices.
    let groupPart: UnsafeMutablePointer<Int>
    let groupFirst: UnsafeMutablePointer<Int>
    let groupVoices: UnsafeMutablePointer<Int>
    /// The span's groups with voices, the busiest first (the order they are claimed in).
    let order: UnsafeMutablePointer<Int>
    let flagStride: Int
    let flags: UnsafeMutablePointer<UInt8>
    /// Left then right, `spanFrames` per group.
    private let mixes: UnsafeMutablePointer<Float>
    /// Reverb left, reverb right, chorus left, chorus right, `spanFrames` per group each.
    private let sendSums: UnsafeMutablePointer<Float>
    /// Per group, set by a SoundFont voice that added to its send sums in the chunk.
    private let sent: UnsafeMutablePointer<Bool>
    /// Whether the span's caller takes sends (read by whichever worker renders a group).
    let takesSends: UnsafeMutablePointer<Bool>
    /// Per part and chunk: the part's values its voices read (written by `prepareContext` before
    /// the groups render).
    let chunks: UnsafeMutablePointer<PartChunk>
    /// Per worker: the context its voices read, pointed at the chunk values of the part it
    /// renders and at its group's send sums for each chunk.
    let workerContexts: LineAlignedArray<VoiceRenderContext>
    let workerCount: Int
    private static let sentStride = 64

    /// `initializeContexts` before use.
    init(parts: Int, voiceSlots: Int, maxFrames: Int, workers: Int) {
        maxChunks = (maxFrames + SamplerConstants.chunkFrames - 1) / SamplerConstants.chunkFrames
        spanFrames = maxChunks * SamplerConstants.chunkFrames
        maxGroups = parts + (voiceSlots + Self.groupSize - 1) / Self.groupSize
        self.voiceSlots = voiceSlots
        self.parts = parts
        workerCount = workers
        flagStride = (maxChunks + 63) / 64 * 64
        func zeros<T: Numeric>(_ count: Int, _: T.Type) -> UnsafeMutablePointer<T> {
            let p = UnsafeMutablePointer<T>.allocate(capacity: count)
            p.initialize(repeating: 0, count: count)
            return p
        }
        slots = zeros(parts * voiceSlots, Int.self)
        slotCounts = zeros(parts, Int.self)
        extraStart = zeros(parts, Int.self)
        extraCount = zeros(parts, Int.self)
        groupPart = zeros(maxGroups, Int.self)
        groupFirst = zeros(maxGroups, Int.self)
        groupVoices = zeros(maxGroups, Int.self)
        order = zeros(maxGroups, Int.self)
        flags = zeros(maxGroups * flagStride, UInt8.self)
        // calloc: fresh pages are left for the kernel to zero when first touched. Most songs sound
        // a few of the groups there is room for; writing them all (megabytes) delayed the start.
        func untouchedZeros(_ count: Int) -> UnsafeMutablePointer<Float> {
            calloc(count, MemoryLayout<Float>.stride)!.bindMemory(to: Float.self, capacity: count)
        }
        mixes = untouchedZeros(2 * maxGroups * spanFrames)
        sendSums = untouchedZeros(4 * maxGroups * spanFrames)
        sent = .allocate(capacity: maxGroups * Self.sentStride)
        sent.initialize(repeating: false, count: maxGroups * Self.sentStride)
        takesSends = .allocate(capacity: 1)
        takesSends.initialize(to: false)
        chunks = .allocate(capacity: parts * maxChunks)
        workerContexts = LineAlignedArray(count: workers)
    }

    /// Gives every chunk the values `blank` (each is written whole before it is read) and worker
    /// `w` the context `worker(w)`.
    func initializeContexts(blank: PartChunk, worker: (Int) -> VoiceRenderContext) {
        chunks.initialize(repeating: blank, count: parts * maxChunks)
        for w in 0..<workerCount { workerContexts.pointer(w).initialize(to: worker(w)) }
    }

    func deallocate() {
        for pointer in [slots, slotCounts, extraStart, extraCount, groupPart, groupFirst, groupVoices, order] { pointer.deallocate() }
        flags.deallocate()
        free(mixes)
        free(sendSums)
        sent.deallocate()
        takesSends.deallocate()
        chunks.deinitialize(count: parts * maxChunks).deallocate()
        workerContexts.deallocate()
    }

    /// Group `group`'s sub-mix over the span.
    @_noAllocation
    func mix(_ group: Int) -> StereoBlock {
        let left = mixes + 2 * group * spanFrames
        return StereoBlock(left: left, right: left + spanFrames, frames: spanFrames)
    }

    /// Group `group`'s reverb and chorus send sums for `frames` from `offset` of the span.
    @_noAllocation
    func sends(_ group: Int, offset: Int, frames: Int) -> (reverb: StereoBlock, chorus: StereoBlock) {
        let base = sendSums + 4 * group * spanFrames + offset
        return (StereoBlock(left: base, right: base + spanFrames, frames: frames),
                StereoBlock(left: base + 2 * spanFrames, right: base + 3 * spanFrames, frames: frames))
    }

    /// Group `group`'s "a SoundFont voice sent" flag.
    @_noAllocation
    func sentFlag(_ group: Int) -> UnsafeMutablePointer<Bool> { sent + group * Self.sentStride }

    /// Group `group`'s flags, chunk by chunk.
    @_noAllocation
    func chunkFlags(_ group: Int) -> UnsafeMutablePointer<UInt8> { flags + group * flagStride }
}
