import AudioFiles
import AudioGraphApp
import DSP
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

    @Test(arguments: [[1, 7, 4096], [100_000], [64, 64, 3]])
    func everyFrameInOrderWithADrainingThread(blocks: [Int]) throws {
        let recorder = Recorder()
        let writer = HandedOffWriter(sink: recorder, capacityFrames: 10_000)
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

    @Test func aFailedWriteReachesTheRendererAndNothingFollowsIt() throws {
        let recorder = Recorder(failAfter: 30_000)
        let writer = HandedOffWriter(sink: recorder, capacityFrames: 10_000)
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
