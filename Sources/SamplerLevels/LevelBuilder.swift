import DSP
import Dispatch
import Sampler
import Spectral

#if canImport(Glibc)
import Glibc
#endif

/// Filters one channel into the levels (control/loader thread). Kept in a process-wide pool and
/// reused: FFTW plans are costly to make (the first ~20 M instructions), cheap to reuse. A region
/// is built block by block, and the blocks are independent, so an offline render splits them
/// between `threads` builders (`LevelStore.buildThreads`); every block is computed the same way
/// by whichever builder, so the levels are the same to the bit.
///
/// A level stored at r frames per source frame is computed as its r phases, each an inverse FFT of
/// the block's size: the frames at the source positions, and those j/r of a frame later (the
/// spectrum times e^(2πi·k·j/(r·n))), interleaved. Same cost as one inverse of r times the size,
/// without planning that size.
final class LevelBuilder {
    /// FFT block, source frames. Each block yields `blockSize` − twice the longest filter's half length.
    static let blockSize = 8192
    private let analysis = RealFFT(size: blockSize)
    private let synthesis = RealFFT(size: blockSize)
    /// Per level and phase: the complex gain at bins 0 ..< blockSize/2, as `SIMD4`s of two bins:
    /// (c, c, c′, c′) for the real part of each product and (−s, s, −s′, s′) for the swapped one,
    /// so that a product is x · c + swap(x) · s.
    private let gains: [[(real: [SIMD4<Float>], swapped: [SIMD4<Float>])]]
    /// FFTW's 1/n, split between the input and output copies (so neither is a plain memcpy,
    /// which callgrind counts byte by byte, rep movsb).
    private static let inputScale = Float(1) / 64, outputScale = Float(1) / Float(blockSize / 64)

    private static let lock = ControlLock()
    /// Builders not in use (guarded by `lock`); as many are made as were ever busy at once.
    nonisolated(unsafe) private static var idle: [LevelBuilder] = []

    private init() {
        let n = Self.blockSize
        let pairs = n / 4  // bins 0 ..< n/2, two per SIMD4 (at n/2 every level's gain is 0)
        gains = LevelFilters.specs.map { spec in
            let r = Double(spec.oversampling)
            return (0..<spec.oversampling).map { phase in
                var real: [SIMD4<Float>] = [], swapped: [SIMD4<Float>] = []
                for pair in 0..<pairs {
                    var c = SIMD4<Float>(), s = SIMD4<Float>()
                    for lane in 0..<2 {
                        let bin = 2 * pair + lane, frequency = Double(bin) / Double(n)
                        let band = LevelFilters.response(spec, at: frequency)
                        // Divided by the live kernel's response at this frequency in stored cycles.
                        let gain = band == 0 ? 0 : band / LevelFilters.liveKernelResponse(at: frequency / r)
                        let angle = 2 * Double.pi * Double(bin) * Double(phase) / (r * Double(n))
                        let (cosine, sine) = phase == 0 || gain == 0 ? (1.0, 0.0) : (cos(angle), sin(angle))
                        c[2 * lane] = Float(gain * cosine); c[2 * lane + 1] = c[2 * lane]
                        s[2 * lane] = Float(-gain * sine); s[2 * lane + 1] = -s[2 * lane]
                    }
                    real.append(c)
                    swapped.append(s)
                }
                return (real, swapped)
            }
        }
    }

    /// Runs `body` with a builder of the pool (made if none is idle), which no one else uses meanwhile.
    static func withBuilder<T>(_ body: (LevelBuilder) -> T) -> T {
        let builder = lock.withLock { idle.popLast() ?? LevelBuilder() }
        defer { lock.withLock { idle.append(builder) } }
        return body(builder)
    }

    /// Blocks overlap by the longest filter of all (the others' tails are zero there, or below −120 dB):
    /// each yields `hop` output frames.
    static var hop: Int { blockSize - 2 * LevelFilters.maxHalfLength }

    /// Filters `input` for output frames −guard ..< `frames` + guard into the first `levels`
    /// levels, on up to `threads` builders at once. Returns one buffer per level holding
    /// (frames + 2 · guard) × oversampling stored frames, stored frame 0 at index guard ×
    /// oversampling. The caller owns the buffers.
    static func build(frames: Int, levels: Int, input: PlayedChannel, threads: Int) -> [UnsafeMutablePointer<Float>] {
        let total = frames + 2 * LevelLayout.guardFrames
        let outputs = LevelFilters.specs.prefix(levels).map { UnsafeMutablePointer<Float>.allocate(capacity: total * $0.oversampling) }
        let blocks = (total + hop - 1) / hop, parts = min(max(1, threads), blocks)
        let job = Job(input: input, outputs: outputs)
        if parts == 1 {
            withBuilder { $0.fill(blocks: 0..<blocks, frames: frames, levels: levels, input: job.input, into: job.outputs) }
        } else {
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                let range = blocks * part / parts..<blocks * (part + 1) / parts
                withBuilder { $0.fill(blocks: range, frames: frames, levels: levels, input: job.input, into: job.outputs) }
            }
        }
        return outputs
    }

    /// What the builders of one region share: the frames they read (immutable while they build)
    /// and the output buffers, each builder writing its own blocks' frames.
    private struct Job: @unchecked Sendable {
        let input: PlayedChannel
        let outputs: [UnsafeMutablePointer<Float>]
    }

    /// Blocks `blocks` of the region (block b: output frames −guard + b · hop ..< + hop) into `outputs`.
    private func fill(blocks: Range<Int>, frames: Int, levels: Int, input: PlayedChannel, into outputs: [UnsafeMutablePointer<Float>]) {
        let specs = LevelFilters.specs.prefix(levels)
        let guardFrames = LevelLayout.guardFrames, half = LevelFilters.maxHalfLength
        let n = Self.blockSize, hop = Self.hop
        // Block by block: output frames start ..< start + hop from input frames start − half ..< start − half + n.
        let x = UnsafeRawPointer(analysis.spectrum), y = UnsafeMutableRawPointer(synthesis.spectrum)
        for block in blocks {
            let start = -guardFrames + block * hop
            input.read(from: start - half, count: n, scale: Self.inputScale, into: analysis.time)
            analysis.forward()
            let count = min(hop, frames + guardFrames - start)
            for (level, spec) in specs.enumerated() {
                for phase in 0..<spec.oversampling {
                    let (real, swapped) = gains[level][phase]
                    real.withUnsafeBufferPointer { c in
                        if phase == 0 {  // a real gain
                            for pair in 0..<c.count {
                                let v = x.loadUnaligned(fromByteOffset: 16 * pair, as: SIMD4<Float>.self)
                                y.storeBytes(of: v * c[pair], toByteOffset: 16 * pair, as: SIMD4<Float>.self)
                            }
                            return
                        }
                        swapped.withUnsafeBufferPointer { s in
                            for pair in 0..<c.count {
                                let v = x.loadUnaligned(fromByteOffset: 16 * pair, as: SIMD4<Float>.self)
                                let product = v * c[pair] + SIMD4(v[1], v[0], v[3], v[2]) * s[pair]
                                y.storeBytes(of: product, toByteOffset: 16 * pair, as: SIMD4<Float>.self)
                            }
                        }
                    }
                    synthesis.spectrum[n] = 0  // the Nyquist bin: above every level's edge
                    synthesis.spectrum[n + 1] = 0
                    synthesis.inverse()
                    let source = synthesis.time + half, scale = Self.outputScale, r = spec.oversampling
                    let destination = outputs[level] + r * (start + guardFrames) + phase
                    for j in 0..<count { destination[r * j] = source[j] * scale }
                }
            }
        }
    }
}

extension LevelBuilder {
    /// Source frames each level of `request`'s region holds (`RegionLevels.frames`): a looped
    /// region's run `loopTailFrames` past the loop end, where the filtered loop repeats exactly,
    /// so the voices' jump back is seamless.
    static func frames(for request: LevelRequest) -> Int {
        request.loop.map { $0.endFrame + LevelFilters.loopTailFrames - LevelLayout.guardFrames } ?? request.waveform.frameCount
    }

    /// Builds the first `levelCount` levels of `request`'s region, every channel, on up to
    /// `threads` builders (control or builder thread). `released` runs when the levels are freed,
    /// with their size.
    static func levels(
        for request: LevelRequest, levelCount: Int, threads: Int = 1, released: @escaping @Sendable (Int) -> Void
    ) -> RegionLevels {
        RegionLevels(frames: frames(for: request), channels: channels(for: request, levelCount: levelCount, threads: threads), released: released)
    }

    /// The same levels, channel by channel, their buffers the caller's.
    /// A 16-bit waveform's levels are stored as 16-bit integers too (`LevelQuantizer.quantized`),
    /// each channel as soon as it is built.
    static func channels(for request: LevelRequest, levelCount: Int, threads: Int = 1) -> [RegionLevels.Channel] {
        let frames = frames(for: request)
        let counts = LevelLayout.oversampling.prefix(levelCount).map { (frames + 2 * LevelLayout.guardFrames) * $0 }
        return (0..<request.waveform.channelCount).map { channel -> RegionLevels.Channel in
            let built = build(frames: frames, levels: levelCount, input: request.played(channel: channel), threads: threads)
            return request.waveform.bytesPerFrame == 2 ? LevelQuantizer.quantized(built, counts: counts) : .float(built)
        }
    }
}
