import Spectral

#if canImport(Glibc)
import Glibc
#endif

/// Band-limited copies of a sample ("levels"), made once (by need) so that the voices can read any
/// upward step with a 4-point cubic kernel (`ResamplingKernels.cubicMOMS`, live) or a 16-tap
/// kernel (`ResamplingKernel`).
///
/// Principle: if the stored data holds content only up to c cycles per stored frame, an
/// interpolation kernel needs a pass band up to c and a stop band around every multiple of the
/// stored rate, k ± c (where the images of that content lie), and nothing aliases as long as the
/// output Nyquist 0.5/σ (σ = stored frames per output frame) is ≥ c. Its pass-band shape does not
/// matter: the level's filter divides it out when the level is built (a prefilter, as in Unser's
/// B-spline interpolation, restricted to the band). The live kernel is a 4-point cubic made for
/// that, the cubic B-spline plus 1/36 of its second derivative (a MOMS, maximal order and minimal
/// support, Blu, Thévenaz & Unser 2001): response H(f) = sinc⁴(f) · (1 − (πf)²/9). The B-spline's
/// sinc⁴ has fourth-order zeros at every k ≠ 0; the second factor adds a zero at f = 3/π = 0.955,
/// which deepens the stop band next to k = 1 where the worst images lie. With c = 0.125 the
/// largest image is −83.4 dB (−88.4 dB for content in the pass band, ≤ 0.1125), all images
/// together −77.9 dB (−82.1 dB); the B-spline alone would need c ≤ 0.0884 (18 stored floats, not 13)
/// for −80.9 dB, o-MOMS (1/42) c ≤ 0.11. So each level is low-passed to the output Nyquist of the
/// largest step it serves and stored at r frames per source frame, r the least whole number
/// keeping its edge ≤ 0.125 cycles per stored frame:
///
/// - level 0 (steps ≤ 1): content to the source Nyquist, r = 4;
/// - level 1 (steps ≤ √2): r = 3;  levels 2, 3 (steps ≤ 2, 2√2): r = 2;
/// - level 4 (steps ≤ 4): r = 1;
/// - level 5 (steps ≤ 8, pass band 0.8 × its edge): r = 1, beyond two octaves. Steps above the
///   top level built (8: +36 semitones from a sample at the output rate) read it and may alias;
///   one-cycle tables stop at step 4 (`shortRegionFrames`) and step far beyond it, but their
///   only partial lies far below its edge.
///
/// Why this and not a longer kernel on fewer stored frames: callgrind counts about as many
/// instructions per voice-sample for this read as for the former aliasing 4-point cubic, half
/// those of the 12-tap Kaiser sinc that the former levels (2 + 2 + 1 + 1 + 1 + 1 = 8 stored floats
/// per source frame, edge ≤ 0.25) needed for −80 dB; the price is memory, 13 floats per source
/// frame (12 without the step-8 level). The offline kernel reads the same levels: a 14-tap Kaiser
/// sinc convolved with the live kernel's values at the frames, (7, 22, 7)/36, so that its pass
/// band matches the prefilter (see `ResamplingKernel`).
///
/// Why half-octave spacing up to step 4: a step just above a level's lower neighbour s′ hears
/// only 0.9 × 0.5 × s′/s of the output rate. Octave levels left 0.225 of it just above the root
/// (10.8 kHz at 48 kHz); half octaves keep 0.9 × 0.5/√2 = 0.318 (15.3 kHz) at every step up to
/// +24 semitones. Levels are built by need, off the start path (`LevelBuildPlan`,
/// `LevelPublisher`): up to step 4 for every region, step 8 for those whose zones reach beyond
/// (`RegionStorage.reach`).
///
/// Every level's rate is a whole multiple of the source's, so loop points and lengths stay whole.
/// A level is built from the region as it plays (for a looped region: the frames up to the loop
/// end, then the loop over and over), so the filtered loop is itself periodic and needs no seam.
///
/// The filters: pass band to 0.9 × the edge, flat (exactly 1, times 1/H of the live kernel),
/// stop band exactly 0 from the edge, between them the integral of a Kaiser window (β 12.3),
/// applied as an FFT fast convolution (overlap-save, FFTW): its cost does not depend on how sharp
/// the filter is (~13 instructions per stored frame, against ~300 multiply-adds per frame for a
/// direct FIR this sharp). The time response's tails beyond `halfLength` lie below −120 dB.
enum BandLimitedLevels {
    struct Spec {
        /// Largest step (source frames per output frame) this level serves.
        var maxStep: Double
        /// Stored frames per source frame (r).
        var oversampling: Int
        /// Pass-band edge / stop-band edge. The top level's is wider (0.8): its filter, the
        /// longest, sets the FFT blocks' overlap, which this halves (390 frames either side).
        var passFraction = 0.9
        /// Stop-band edge, cycles per source frame.
        var edge: Double { 0.5 / maxStep }
        /// Pass-band edge, cycles per source frame.
        var passEdge: Double { passFraction * edge }
        /// Source frames either side beyond which the filter's response is below −120 dB
        /// (Kaiser: N = (A − 7.95) / (14.36 Δf), dual in time; 25 % to spare).
        var halfLength: Int { Int((1.25 * (120 - 7.95) / (14.36 * (edge - passEdge)) / 2).rounded(.up)) }
    }

    static let specs = [
        Spec(maxStep: 1, oversampling: 4), Spec(maxStep: 2.0.squareRoot(), oversampling: 3),
        Spec(maxStep: 2, oversampling: 2), Spec(maxStep: 8.0.squareRoot(), oversampling: 2), Spec(maxStep: 4, oversampling: 1),
        Spec(maxStep: 8, oversampling: 1, passFraction: 0.8),
    ]
    /// `specs.count`, as a literal: the voices read it per chunk, and a static let computed from
    /// the array would be a lazily initialised global, checked (swift_once) on every read.
    static var count: Int { 6 }
    /// The largest `oversampling`: a region longer than `Int32.max / maxOversampling` frames
    /// keeps its plain form (its 32.32 phase in stored frames would overflow).
    static let maxOversampling = 4

    /// The live kernel's response at `frequency` cycles per stored frame, sinc⁴(f) · (1 − (πf)²/9):
    /// what it does to the pass band, and what each level's filter divides by.
    static func liveKernelResponse(at frequency: Double) -> Double {
        guard frequency != 0 else { return 1 }
        let x = Double.pi * frequency, sinc = sin(x) / x
        return sinc * sinc * sinc * sinc * (1 - x * x / 9)
    }

    /// Stored frames of silence-or-ringing kept before frame 0 and after the last frame of every
    /// level, so the widest kernel window never leaves the buffer.
    static let guardFrames = 16

    /// A looped region's levels run this many source frames past the loop end before the voice
    /// jumps back one loop length: the filtered signal repeats exactly once its filters (the
    /// longest of the first `levels`) no longer reach back before the loop end, plus the kernel's window.
    static func loopTailFrames(levels: Int) -> Int { specs.prefix(levels).map(\.halfLength).max()! + guardFrames }

    /// Regions this short (one-cycle tables such as the built-in sine, stepped tens to hundreds of
    /// frames per output frame) stop at the step-4 level. Their only partial passes every level,
    /// but their abrupt start rings in a low-passed level, the longer and louder the lower its
    /// edge: a 4-voice steal test on the sine at steps 9–10 measured a third difference of
    /// 1.05 × its click bound on the step-8 level, 1.95 × on a step-16 one, within it on step 4.
    static let shortRegionFrames = 4096
    static let shortRegionTopStep = 4.0

    /// Transition shape: 1 − the normalised integral of a Kaiser window (β 12.3), tabulated.
    private static let transitionPoints = 2048
    private static let transition: [Double] = {
        let beta = 0.1102 * (120 - 8.7), n = transitionPoints
        func window(_ u: Double) -> Double { besselI0(beta * max(0, 1 - (2 * u - 1) * (2 * u - 1)).squareRoot()) }
        var cumulative = [Double](repeating: 0, count: n + 1)
        let steps = 8, h = 1 / Double(n * steps)
        var sum = 0.0, previous = window(0)
        for i in 1...n {
            for s in 1...steps {
                let value = window((Double((i - 1) * steps + s)) * h)
                sum += (previous + value) * h / 2
                previous = value
            }
            cumulative[i] = sum
        }
        return cumulative.map { 1 - $0 / sum }
    }()

    /// The filter's gain at `frequency` cycles per source frame.
    static func response(_ spec: Spec, at frequency: Double) -> Double {
        if frequency <= spec.passEdge { return 1 }
        if frequency >= spec.edge { return 0 }
        let position = (frequency - spec.passEdge) / (spec.edge - spec.passEdge) * Double(transitionPoints)
        let index = min(Int(position), transitionPoints - 1), t = position - Double(index)
        return transition[index] + t * (transition[index + 1] - transition[index])
    }

    /// I₀ by the polynomial fits of Abramowitz & Stegun 9.8.1–2 (relative error < 2·10⁻⁷).
    static func besselI0(_ x: Double) -> Double {
        if x < 3.75 {
            let t = x * x / (3.75 * 3.75)
            return 1 + t * (3.5156229 + t * (3.0899424 + t * (1.2067492 + t * (0.2659732 + t * (0.0360768 + t * 0.0045813)))))
        }
        let t = 3.75 / x
        let p = 0.39894228 + t * (0.01328592 + t * (0.00225319 + t * (-0.00157565 + t * (0.00916281
            + t * (-0.02057706 + t * (0.02635537 + t * (-0.01647633 + t * 0.00392377)))))))
        return exp(x) / x.squareRoot() * p
    }
}

/// One channel of a region as it plays: the waveform's frames up to the loop end, then the loop
/// again and again (unlooped: up to the last frame, then silence).
struct PlayedChannel {
    var frames: UnsafePointer<Float>
    var frameCount: Int
    var loop: SamplerLoop?

    /// Writes frames `first ..< first + count` × `scale` to `output` (0 before frame 0 and after
    /// the end), run by run. Scaling makes the copies loops rather than memcpy, which callgrind
    /// counts byte by byte (rep movsb).
    func read(from first: Int, count: Int, scale: Float, into output: UnsafeMutablePointer<Float>) {
        var i = 0
        while i < count {
            let frame = first + i
            var run: Int, source: UnsafePointer<Float>?
            if frame < 0 {
                run = min(count - i, -frame); source = nil
            } else if frame < (loop?.endFrame ?? frameCount) {
                run = min(count - i, (loop?.endFrame ?? frameCount) - frame); source = frames + frame
            } else if let loop {
                let length = loop.endFrame - loop.startFrame, offset = (frame - loop.endFrame) % length
                run = min(count - i, length - offset); source = frames + loop.startFrame + offset
            } else {
                run = count - i; source = nil
            }
            if let source {
                Self.copy(source, count: run, scale: scale, into: output + i)
            } else {
                (output + i).update(repeating: 0, count: run)
            }
            i += run
        }
    }
}

extension PlayedChannel {
    /// `count` floats × `scale`, eight at a time (the scalar loop was ~6 instructions a frame
    /// under callgrind, memcpy one per byte).
    static func copy(_ source: UnsafePointer<Float>, count: Int, scale: Float, into output: UnsafeMutablePointer<Float>) {
        let vectorScale = SIMD8<Float>(repeating: scale)
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(output)
        var j = 0
        while j + 8 <= count {
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: 4 * j, as: SIMD8<Float>.self) * vectorScale, toByteOffset: 4 * j, as: SIMD8<Float>.self)
            j += 8
        }
        while j < count {
            output[j] = source[j] * scale
            j += 1
        }
    }
}

/// Filters one channel into the levels (control/loader thread). One per process, behind a lock:
/// FFTW plans are costly to make (the first ~20 M instructions), cheap to reuse.
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

    private static let lock = PlannerLock()
    nonisolated(unsafe) private static var shared: LevelBuilder?

    private init() {
        let n = Self.blockSize
        let pairs = n / 4  // bins 0 ..< n/2, two per SIMD4 (at n/2 every level's gain is 0)
        gains = BandLimitedLevels.specs.map { spec in
            let r = Double(spec.oversampling)
            return (0..<spec.oversampling).map { phase in
                var real: [SIMD4<Float>] = [], swapped: [SIMD4<Float>] = []
                for pair in 0..<pairs {
                    var c = SIMD4<Float>(), s = SIMD4<Float>()
                    for lane in 0..<2 {
                        let bin = 2 * pair + lane, frequency = Double(bin) / Double(n)
                        let band = BandLimitedLevels.response(spec, at: frequency)
                        // Divided by the live kernel's response at this frequency in stored cycles.
                        let gain = band == 0 ? 0 : band / BandLimitedLevels.liveKernelResponse(at: frequency / r)
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

    /// Runs `body` with the process's builder, one caller at a time.
    static func withShared<T>(_ body: (LevelBuilder) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        if shared == nil { shared = LevelBuilder() }
        return body(shared!)
    }

    /// Filters `input` for output frames −guard ..< `frames` + guard into the first `levels`
    /// levels. Returns one buffer per level holding (frames + 2 · guard) × oversampling stored
    /// frames, stored frame 0 at index guard × oversampling. The caller owns the buffers.
    func build(frames: Int, levels: Int, input: PlayedChannel) -> [UnsafeMutablePointer<Float>] {
        let specs = BandLimitedLevels.specs.prefix(levels)
        // Blocks overlap by the longest filter built (the others' tails are zero there, or below −120 dB).
        let guardFrames = BandLimitedLevels.guardFrames, half = specs.map(\.halfLength).max()!
        let n = Self.blockSize, hop = n - 2 * half
        let total = frames + 2 * guardFrames
        let outputs = specs.map { UnsafeMutablePointer<Float>.allocate(capacity: total * $0.oversampling) }
        // Block by block: output frames start ..< start + hop from input frames start − half ..< start − half + n.
        let x = UnsafeRawPointer(analysis.spectrum), y = UnsafeMutableRawPointer(synthesis.spectrum)
        var start = -guardFrames
        while start < frames + guardFrames {
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
            start += hop
        }
        return outputs
    }
}
