import AudioFiles
import DSP
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An offline render's output written by the helper threads when they have nothing to render:
/// the rendering thread only copies each block into a ring (`write`), and a helper between spans
/// hands the frames waiting there to the file (`drain`), so formatting and the `write` calls
/// leave the rendering thread, which the helpers otherwise wait on. The file gets the same frames
/// in the same order. When the ring is full the rendering thread drains it itself; `finish`
/// drains what is left. A failed write is kept and thrown by the next `write` or by `finish`.
///
/// One thread calls `write` and `finish` (the renderer's); any thread may call `drain`, one at a
/// time holding the ring's tail (`draining`).
public final class HandedOffWriter: @unchecked Sendable {
    private let sink: AudioFileSink
    private let capacity: Int
    private let left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>
    /// Frames ever copied in (written by `write`) and ever handed to the sink (by the drainer).
    private let copied = Atomic<Int>(0), handed = Atomic<Int>(0)
    private let draining = Atomic<Bool>(false)
    /// The first failed write (guarded by `draining`).
    private var failure: AudioFileError?
    /// Run by the drainer after each hand-over (`RenderOutput.startWriteback`).
    private let handedOn: (() -> Void)?

    /// Most frames a helper hands to the sink per `drain`: it goes back to the spans soon.
    public static let drainFrames = 8192

    /// `capacityFrames`: how far the rendering thread can run ahead of the file; `handedOn` runs
    /// after each hand-over to the sink, on the thread that made it, one at a time.
    public init(sink: AudioFileSink, capacityFrames: Int = 65_536, handedOn: (() -> Void)? = nil) {
        self.sink = sink
        self.handedOn = handedOn
        capacity = max(1, capacityFrames)
        left = .allocate(capacity: capacity)
        right = .allocate(capacity: capacity)
    }

    deinit {
        left.deallocate()
        right.deallocate()
    }

    /// Copies `block` in, draining the ring first as far as it needs room. Rendering thread.
    public func write(_ block: StereoBlock) throws(AudioFileError) {
        var done = 0
        while done < block.frames {
            let end = copied.load(ordering: .relaxed)
            let room = capacity - (end - handed.load(ordering: .acquiring))
            if room == 0 {
                try drainAll()
                continue
            }
            let at = end % capacity, n = min(block.frames - done, room, capacity - at)
            (left + at).update(from: block.left + done, count: n)
            (right + at).update(from: block.right + done, count: n)
            copied.store(end + n, ordering: .releasing)
            done += n
        }
        try check()
    }

    /// Hands up to `drainFrames` waiting frames to the sink; false when none waited or another
    /// thread is draining. Any thread.
    @discardableResult
    public func drain(maxFrames: Int = drainFrames) -> Bool {
        guard draining.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return false }
        defer { draining.store(false, ordering: .releasing) }
        guard failure == nil else { return false }
        let start = handed.load(ordering: .relaxed), end = start + min(copied.load(ordering: .acquiring) - start, maxFrames)
        guard end > start else { return false }
        var at = start
        while at < end {
            let offset = at % capacity, n = min(end - at, capacity - offset)
            do {
                try sink.write(left: left + offset, right: right + offset, frames: n)
            } catch {
                failure = error
                return true
            }
            at += n
        }
        handed.store(end, ordering: .releasing)
        handedOn?()
        return true
    }

    /// Hands every waiting frame to the sink (the rendering thread, after the render), then
    /// throws the write that failed, if one did.
    public func finish() throws(AudioFileError) {
        try drainAll()
    }

    private func drainAll() throws(AudioFileError) {
        while handed.load(ordering: .acquiring) < copied.load(ordering: .relaxed) {
            try check()
            if !drain(maxFrames: .max) { sched_yield() }  // a helper holds the tail: it hands its frames on
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
