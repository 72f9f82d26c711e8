import DSP
import Engine
import MIDI

/// Renders an engine block by block with events given in absolute frames, like the offline renderer.
struct EngineRig {
    let engine: AudioEngine
    let blockFrames: Int
    let buffer: StereoBuffer
    static let rate = 48000.0

    init(blockFrames: Int = 64, content: EngineContent = EngineContent(), settings: [String] = []) throws {
        engine = try AudioEngine(configuration: EngineConfiguration(sampleRate: Self.rate, maxFrames: blockFrames), content: content)
        for s in settings { try engine.parameters.apply(assignment: s) }
        self.blockFrames = blockFrames
        buffer = StereoBuffer(capacity: blockFrames)
    }

    /// Renders `frames` frames; `events` are (absolute frame, message). Returns left and right.
    func render(frames: Int, events: [(Int, MIDIMessage)] = [], input: [Float]? = nil) -> (left: [Float], right: [Float]) {
        var left: [Float] = [], right: [Float] = []
        let inputBuffer = StereoBuffer(capacity: blockFrames)
        var start = 0
        while start < frames {
            let n = min(blockFrames, frames - start)
            let timed = events.filter { $0.0 >= start && $0.0 < start + n }.map { TimedMIDIMessage(frameOffset: $0.0 - start, message: $0.1) }
            let block = buffer.block(frames: n)
            var inputBlock: StereoBlock?
            if let input {
                let ib = inputBuffer.block(frames: n)
                for i in 0..<n {
                    let v = start + i < input.count ? input[start + i] : 0
                    ib.left[i] = v
                    ib.right[i] = v
                }
                inputBlock = ib
            }
            timed.withUnsafeBufferPointer { engine.render(output: block, input: inputBlock, events: $0) }
            left.append(contentsOf: UnsafeBufferPointer(start: block.left, count: n))
            right.append(contentsOf: UnsafeBufferPointer(start: block.right, count: n))
            start += n
        }
        return (left, right)
    }
}
