import AudioFiles
import DSP
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An offline render's output written by the helper threads when they have nothing to render:
/// the rendering thread only copies each block into a ring of block slots (`write`), and a helper
/// between spans hands the blocks waiting there to the file (`drain`), so formatting and the
/// `write` calls leave the rendering thread, which the helpers otherwise wait on. The sink gets
/// the same blocks, one `write` each, in the same order, as when the renderer wrote them itself:
/// an encoder whose output depends on how it is fed (Vorbis) writes the same bytes whoever hands
/// them on. When the ring is full the rendering thread drains it itself; `finish` drains what is
/// left. A failed write is kept and thrown by the next `write` or by `finish`.
///
/// One thread calls `write` and `finish` (the renderer's); any thread may call `drain`, one at a
/// time holding the ring's tail (`draining`).
public final class HandedOffWriter: @unchecked Sendable {
    private let sink: AudioFileSink
    private let blockFrames: Int, slots: Int
    private let left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>
    /// Frames of the block in each slot.
    private let lengths: UnsafeMutablePointer<Int>
    /// Blocks ever copied in (written by `write`) and ever handed to the sink (by the drainer).
    private let copied = Atomic<Int>(0), handed = Atomic<Int>(0)
    private let draining = Atomic<Bool>(false)
    /// The first failed write (guarded by `draining`).
    private var failure: AudioFileError?
    /// Run by the drainer after each hand-over (`RenderOutput.startWriteback`).
    private let handedOn: (() -> Void)?

    /// Most blocks a helper hands to the sink per `drain`: it goes back to the spans soon.
    public static let drainBlocks = 2

    /// `blockFrames`: the largest block `write` is given; `slots`: how many blocks the rendering
    /// thread can run ahead of the file; `handedOn` runs after each hand-over to the sink, on the
    /// thread that made it, one at a time.
    public init(sink: AudioFileSink, blockFrames: Int, slots: Int = 16, handedOn: (() -> Void)? = nil) {
        self.sink = sink
        self.blockFrames = max(1, blockFrames)
        self.slots = max(1, slots)
        self.handedOn = handedOn
        left = .allocate(capacity: self.blockFrames * self.slots)
        right = .allocate(capacity: self.blockFrames * self.slots)
        lengths = .allocate(capacity: self.slots)
        lengths.initialize(repeating: 0, count: self.slots)
    }

    deinit {
        left.deallocate()
        right.deallocate()
        lengths.deallocate()
    }

    /// Copies `block` (at most `blockFrames`) in, draining the ring first when it is full.
    /// Rendering thread.
    public func write(_ block: StereoBlock) throws(AudioFileError) {
        precondition(block.frames <= blockFrames, "a block longer than the writer's slots")
        while copied.load(ordering: .relaxed) - handed.load(ordering: .acquiring) == slots { try drainAll() }
        let count = copied.load(ordering: .relaxed), slot = count % slots
        (left + slot * blockFrames).update(from: block.left, count: block.frames)
        (right + slot * blockFrames).update(from: block.right, count: block.frames)
        lengths[slot] = block.frames
        copied.store(count + 1, ordering: .releasing)
        try check()
    }

    /// Hands up to `maxBlocks` waiting blocks to the sink; false when none waited or another
    /// thread is draining. Any thread.
    @discardableResult
    public func drain(maxBlocks: Int = drainBlocks) -> Bool {
        guard draining.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return false }
        defer { draining.store(false, ordering: .releasing) }
        guard failure == nil else { return false }
        let start = handed.load(ordering: .relaxed), end = start + min(copied.load(ordering: .acquiring) - start, maxBlocks)
        guard end > start else { return false }
        for block in start..<end {
            let slot = block % slots
            do {
                try sink.write(left: left + slot * blockFrames, right: right + slot * blockFrames, frames: lengths[slot])
            } catch {
                failure = error
                return true
            }
            handed.store(block + 1, ordering: .releasing)
        }
        handedOn?()
        return true
    }

    /// Hands every waiting block to the sink (the rendering thread, after the render), then
    /// throws the write that failed, if one did.
    public func finish() throws(AudioFileError) {
        try drainAll()
    }

    private func drainAll() throws(AudioFileError) {
        while handed.load(ordering: .acquiring) < copied.load(ordering: .relaxed) {
            try check()
            if !drain(maxBlocks: .max) { sched_yield() }  // a helper holds the tail: it hands its blocks on
        }
        try check()
    }

    private func check() throws(AudioFileError) {
        // Read under the drainer's flag: a helper may be setting it.
        guard draining.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return }
        let failed = failure
        draining.store(false, ordering: .releasing)
        if let failed { throw failed }
    }
}
