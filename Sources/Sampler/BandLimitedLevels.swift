import Spectral

#if canImport(Glibc)
import Glibc
#endif

/// Band-limited copies of a sample ("levels"), made once at load so that the voices can read any
/// upward step with one short, fixed kernel (`ResamplingKernel`).
///
/// Principle: if the stored data holds content only up to c cycles per stored frame, an
/// interpolation kernel needs a pass band up to c and a stop band from 1 − c (where the images of
/// that content start), and nothing aliases as long as the output Nyquist 0.5/σ (σ = stored frames
/// per output frame) is ≥ c. With c ≤ 0.25 that transition is ≥ 0.5 wide, which a 12-tap Kaiser
/// sinc covers at −80 dB (16 taps at −120 dB offline). So each level is low-passed to the output
/// Nyquist of the largest step it serves, and stored at a rate where that edge is ≤ 0.25:
///
/// - level 0 (steps ≤ 1): the sample upsampled exactly 2×, content to the source Nyquist;
/// - level 1 (steps ≤ √2): 2×, low-passed to 0.5/√2 cycles per source frame. Without it, steps
///   just above 1 — the commonest case, every note just above a multisample's root — would be read
///   from level 2 and lose everything above 0.21 × the output rate (10 kHz at 48 kHz); with it the
///   worst pass band is 0.9 × 0.5/√2 = 0.32 × the output rate (15.3 kHz), as the former
///   step-following kernel had (16 kHz);
/// - levels 2, 3, 4 (steps ≤ 2, 4, 8): at the source rate, low-passed to 0.5/step. Steps above
///   8 (+36 semitones from a sample at the output rate) read the top level and may alias; the
///   built-in one-cycle tables step far beyond it, but their only partial lies far below its edge.
///
/// Every level is at the source rate or exactly twice it, so loop points and lengths stay whole.
/// A level is built from the region as it plays (for a looped region: the frames up to the loop
/// end, then the loop over and over), so the filtered loop is itself periodic and needs no seam.
///
/// The filters: pass band to 0.9 × the edge, flat (exactly 1), stop band exactly 0 from the edge,
/// between them the integral of a Kaiser window (β 12.3), applied as an FFT fast convolution
/// (overlap-save, FFTW): its cost does not depend on how sharp the filter is (~100 instructions
/// per source frame for all five levels, against ~300 multiply-adds per frame for a direct FIR
/// this sharp). The time response's tails beyond `halfLength` lie below −120 dB.
enum BandLimitedLevels {
    struct Spec {
        /// Largest step (source frames per output frame) this level serves.
        var maxStep: Double
        /// Stored frames per source frame: 1 or 2.
        var oversampling: Int
        /// Stop-band edge, cycles per source frame.
        var edge: Double { 0.5 / maxStep }
        /// Pass-band edge, cycles per source frame.
        var passEdge: Double { 0.9 * edge }
        /// Source frames either side beyond which the filter's response is below −120 dB
        /// (Kaiser: N = (A − 7.95) / (14.36 Δf), dual in time; 25 % to spare).
        var halfLength: Int { Int((1.25 * (120 - 7.95) / (14.36 * (edge - passEdge)) / 2).rounded(.up)) }
    }

    static let specs = [
        Spec(maxStep: 1, oversampling: 2), Spec(maxStep: 2.0.squareRoot(), oversampling: 2),
        Spec(maxStep: 2, oversampling: 1), Spec(maxStep: 4, oversampling: 1), Spec(maxStep: 8, oversampling: 1),
    ]
    static let count = 5
    static let maxHalfLength = specs.map(\.halfLength).max()!

    /// Stored frames of silence-or-ringing kept before frame 0 and after the last frame of every
    /// level, so the widest kernel window never leaves the buffer.
    static let guardFrames = 16

    /// A looped region's levels run this many source frames past the loop end before the voice
    /// jumps back one loop length: the filtered signal repeats exactly once its filters no longer
    /// reach back before the loop end, plus the kernel's window.
    static let loopTailFrames = maxHalfLength + guardFrames

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

/// Filters one channel into every level (control/loader thread). One per process, behind a lock:
/// FFTW plans are costly to make (the first ~20 M instructions), cheap to reuse.
final class LevelBuilder {
    /// FFT block, source frames. Each block yields `blockSize − 2 · maxHalfLength` frames.
    static let blockSize = 8192
    private let single = RealFFT(size: blockSize)
    private let double = RealFFT(size: 2 * blockSize)
    /// Per level: the response at bins 0…blockSize/2, scaled by 1/blockSize (FFTW is unnormalised;
    /// upsampling by 2 doubles the gain and the inverse's length, so the scale is the same).
    private let responses: [[Float]]
    private var spectrum: [Float]

    private static let lock = PlannerMutex()
    nonisolated(unsafe) private static var shared: LevelBuilder?

    private init() {
        let n = Self.blockSize
        responses = BandLimitedLevels.specs.map { spec in
            (0...(n / 2)).map { Float(BandLimitedLevels.response(spec, at: Double($0) / Double(n)) / Double(n)) }
        }
        spectrum = [Float](repeating: 0, count: n + 2)
    }

    /// Runs `body` with the process's builder, one caller at a time.
    static func withShared<T>(_ body: (LevelBuilder) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        if shared == nil { shared = LevelBuilder() }
        return body(shared!)
    }

    /// Filters `input` (source frames; `input(n)` is frame n of the region as it plays, 0 outside)
    /// for output frames −guard ..< `frames` + guard into every level. Returns one buffer per level
    /// holding (frames + 2 · guard) × oversampling stored frames, stored frame 0 at
    /// index guard × oversampling. The caller owns the buffers.
    func build(frames: Int, input: [Float], inputOrigin: Int) -> [UnsafeMutablePointer<Float>] {
        let guardFrames = BandLimitedLevels.guardFrames, half = BandLimitedLevels.maxHalfLength
        let n = Self.blockSize, hop = n - 2 * half
        let total = frames + 2 * guardFrames
        let outputs = BandLimitedLevels.specs.map { UnsafeMutablePointer<Float>.allocate(capacity: total * $0.oversampling) }
        // Block b covers output frames start ..< start + hop, from input frames start − half ..< start − half + n.
        var start = -guardFrames
        while start < frames + guardFrames {
            let first = start - half
            input.withUnsafeBufferPointer { source in
                for i in 0..<n {
                    let index = first + i - inputOrigin
                    single.time[i] = index >= 0 && index < source.count ? source[index] : 0
                }
            }
            single.forward()
            for i in 0..<(n + 2) { spectrum[i] = single.spectrum[i] }
            let count = min(hop, frames + guardFrames - start)
            for (level, spec) in BandLimitedLevels.specs.enumerated() {
                let response = responses[level]
                let fft = spec.oversampling == 2 ? double : single
                let bins = n / 2 + 1
                for k in 0..<bins {
                    fft.spectrum[2 * k] = spectrum[2 * k] * response[k]
                    fft.spectrum[2 * k + 1] = spectrum[2 * k + 1] * response[k]
                }
                for k in bins..<fft.binCount {
                    fft.spectrum[2 * k] = 0
                    fft.spectrum[2 * k + 1] = 0
                }
                fft.inverse()
                let m = spec.oversampling
                let destination = outputs[level] + (start + guardFrames) * m
                (destination).update(from: fft.time + half * m, count: count * m)
            }
            start += hop
        }
        return outputs
    }
}

/// A process-wide pthread mutex (control thread only; never taken while rendering).
final class PlannerMutex: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
}
