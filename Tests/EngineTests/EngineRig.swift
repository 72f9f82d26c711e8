import DSP
import Engine
import MIDI

/// Renders an engine block by block with events given in absolute frames, like the offline renderer.
/// Its output is aligned with the events: the engine's latency (the limiter's look-ahead) is
/// rendered on and dropped from the start of the first render, as the offline renderer does.
final class EngineRig {
    let engine: AudioEngine
    let blockFrames: Int
    let buffer: StereoBuffer
    static let rate = 48000.0
    private var latencyToDrop: Int

    init(blockFrames: Int = 64, content: EngineContent = EngineContent(), settings: [String] = []) throws {
        engine = try AudioEngine(configuration: EngineConfiguration(sampleRate: Self.rate, maxFrames: blockFrames), content: content)
        for s in settings { try engine.parameters.apply(assignment: s) }
        self.blockFrames = blockFrames
        buffer = StereoBuffer(capacity: blockFrames)
        latencyToDrop = engine.latencyFrames
    }

    /// Renders `frames` frames; `events` are (frame from this call's start, message). Returns left and right.
    func render(frames: Int, events: [(Int, MIDIMessage)] = [], input: [Float]? = nil) -> (left: [Float], right: [Float]) {
        let latency = latencyToDrop
        latencyToDrop = 0
        let out = renderUncompensated(frames: frames + latency, events: events, input: input)
        return (Array(out.left.dropFirst(latency)), Array(out.right.dropFirst(latency)))
    }

    /// The engine's output as it comes, `latencyFrames` behind the events.
    func renderUncompensated(frames: Int, events: [(Int, MIDIMessage)] = [], input: [Float]? = nil) -> (left: [Float], right: [Float]) {
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
