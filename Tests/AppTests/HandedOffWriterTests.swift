import AudioFiles
import AudioGraphApp
import DSP
import FileAccess
import Foundation
import Synchronization
import Testing

/// `HandedOffWriter`: the file gets every frame the renderer wrote, in order, whichever thread
/// hands them on and however the blocks fall against its ring; a failed write reaches the
/// renderer and nothing after it is written.
@Suite struct HandedOffWriterTests {
    /// Keeps what it is given; fails the write that would take it past `failAfter` frames.
    final class Recorder: AudioFileSink, @unchecked Sendable {
        var left: [Float] = [], right: [Float] = []
        let failAfter: Int

        init(failAfter: Int = .max) { self.failAfter = failAfter }

        func write(left: UnsafePointer<Float>, right: UnsafePointer<Float>?, frames: Int) throws(AudioFileError) {
            guard self.left.count + frames <= failAfter else { throw AudioFileError(path: "recorder", reason: "disk full") }
            self.left += UnsafeBufferPointer(start: left, count: frames)
            self.right += UnsafeBufferPointer(start: right ?? left, count: frames)
        }

        func finish() throws(AudioFileError) {}
        func close() {}
    }

    /// Writes `total` frames (left n, right −n) in blocks of the given sizes, in turn.
    static func feed(_ writer: HandedOffWriter, total: Int, blocks: [Int]) throws(AudioFileError) {
        let buffer = StereoBuffer(capacity: blocks.max()!)
        var written = 0, turn = 0
        while written < total {
            let block = buffer.block(frames: min(blocks[turn % blocks.count], total - written))
            for i in 0..<block.frames {
                block.left[i] = Float(written + i)
                block.right[i] = -Float(written + i)
            }
            try writer.write(block)
            written += block.frames
            turn += 1
        }
    }

    @Test(arguments: [[1, 7, 4096], [4096], [64, 64, 3]])
    func everyFrameInOrderWithADrainingThread(blocks: [Int]) throws {
        let recorder = Recorder()
        let writer = HandedOffWriter(sink: recorder, blockFrames: 4096, slots: 3)
        let stop = Atomic<Bool>(false)
        let helper = Thread {
            while !stop.load(ordering: .acquiring) { if !writer.drain() { sched_yield() } }
        }
        helper.start()
        let total = 250_000
        try Self.feed(writer, total: total, blocks: blocks)
        stop.store(true, ordering: .releasing)
        try writer.finish()
        #expect(recorder.left == (0..<total).map(Float.init))
        #expect(recorder.right == (0..<total).map { -Float($0) })
    }

    /// The hook the render uses to have the disk write the file as it grows runs after hand-overs only.
    @Test func theHandOverHookRunsAfterEachHandOver() throws {
        let recorder = Recorder()
        let count = Atomic<Int>(0)
        let writer = HandedOffWriter(sink: recorder, blockFrames: 4096, slots: 3) { count.add(1, ordering: .relaxed) }
        #expect(!writer.drain() && count.load(ordering: .relaxed) == 0)
        try Self.feed(writer, total: 20_000, blocks: [4096])
        let before = count.load(ordering: .relaxed)
        while writer.drain() {}
        try writer.finish()
        #expect(count.load(ordering: .relaxed) > before && recorder.left.count == 20_000)
    }

    /// `OutputFile.startWriteback` starts the disk on what was written once there is enough of it,
    /// and leaves the bytes and the commit as they were.
    @Test func writebackStartsOncePerStretchAndChangesNothing() throws {
        let path = NSTemporaryDirectory() + "audiograph-writeback-\(UUID().uuidString).bin"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try OutputFile(path)
        let bytes = (0..<(OutputFile.writebackBytes + 1000)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        #expect(!file.startWriteback())  // nothing written yet
        _ = bytes.withUnsafeBytes { write(file.descriptor, $0.baseAddress!, $0.count) }
        #expect(file.startWriteback())
        #expect(!file.startWriteback())  // nothing new since
        try file.commit()
        #expect(FileManager.default.contents(atPath: path) == Data(bytes))
    }

    @Test func aFailedWriteReachesTheRendererAndNothingFollowsIt() throws {
        let recorder = Recorder(failAfter: 30_000)
        let writer = HandedOffWriter(sink: recorder, blockFrames: 4096, slots: 3)
        var thrown: AudioFileError?
        do {
            try Self.feed(writer, total: 100_000, blocks: [4096])
            try writer.finish()
        } catch {
            thrown = error
        }
        #expect(thrown?.reason == "disk full")
        #expect(recorder.left.count <= 30_000)
        #expect(recorder.left == (0..<recorder.left.count).map(Float.init))
    }
}
