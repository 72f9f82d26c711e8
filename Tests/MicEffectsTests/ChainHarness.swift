import DSP
import MicEffects

/// Runs a `MicChain` over whole signals in fixed-size blocks, the way the engine does.
enum ChainHarness {
    static let sampleRate = 48_000.0
    static let blockFrames = 64

    /// Processes `left`/`right` (right defaults to left) and returns both outputs. `beforeBlock`
    /// receives the frame index of each block's start, to set parameters as the engine would.
    static func run(
        _ chain: MicChain, left: [Float], right: [Float]? = nil, blockFrames: Int = blockFrames,
        beforeBlock: (Int) -> Void = { _ in }
    ) -> (left: [Float], right: [Float]) {
        var l = left
        var r = right ?? left
        let io = StereoBuffer(capacity: blockFrames)
        var start = 0
        while start < l.count {
            let n = min(blockFrames, l.count - start)
            beforeBlock(start)
            for i in 0..<n {
                io.left[i] = l[start + i]
                io.right[i] = r[start + i]
            }
            // Input and output alias, the hardest case the chain must support.
            chain.process(input: io.block(frames: n), output: io.block(frames: n))
            for i in 0..<n {
                l[start + i] = io.left[i]
                r[start + i] = io.right[i]
            }
            start += n
        }
        return (l, r)
    }

    /// A chain with `kind` selected at full wet mix, already switched (no crossfade pending).
    static func chain(_ kind: MicEffectKind, maxFrames: Int = 512, configure: (MicChain) -> Void = { _ in }) -> MicChain {
        let chain = MicChain(sampleRate: sampleRate, maxFrames: maxFrames)
        chain.prepare(kind)
        chain.preparePitchTracking()
        chain.setEffect(kind)
        chain.setMix(1)
        configure(chain)
        chain.reset()
        return chain
    }

    static func impulse(count: Int, at index: Int, amplitude: Float = 1) -> [Float] {
        var x = [Float](repeating: 0, count: count)
        x[index] = amplitude
        return x
    }
}
