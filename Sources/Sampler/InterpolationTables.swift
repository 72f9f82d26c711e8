#if canImport(Glibc)
import Glibc
#endif
import DSP

/// How the voices read between sample frames.
public enum InterpolationQuality: Sendable, Equatable {
    /// Band-limited: a 4-point cubic (B-spline + 1/36 of its second derivative) on the band-limited
    /// level for the step (see `ResamplingKernels.cubicMOMS`, `LevelLayout`), images ≤ −80
    /// dBc. Live playback.
    case realtime
    /// The same levels read by a 16-tap kernel, images ≤ −110 dBc (see `ResamplingKernel`).
    /// Offline rendering.
    case high
    /// The former live kernel, 4-point cubic Hermite with no anti-aliasing, reading the plain
    /// level-0 data whatever the step: kept as the benchmark baseline only. A 15 kHz partial
    /// moved up an octave comes back as an 18 kHz alias at full level.
    case cubic
}

/// The offline kernel's polyphase table: `rows` phases of `quads` (weight, slope) pairs of `SIMD4`
/// (the taps of a row are weight + fraction × slope, linearly interpolating to the next row).
/// Plain data.
///
/// The levels (`LevelLayout`, built by `SamplerLevels`) hold content only up to 0.125 cycles per stored frame,
/// prefiltered for the live kernel: divided by its response H(f) = sinc⁴(f) · (1 − (πf)²/9). A
/// kernel reading them must therefore have that response in the pass band, and stop the images
/// from 1 − 0.125 on. This one is a Kaiser-windowed sinc (cutoff 0.5 cycles per stored frame, so
/// row 0 is the identity) convolved with the live kernel's values at the frames, (7, 22, 7)/36:
/// that discrete response, (22 + 14 cos 2πf)/36, is H summed over its images (Poisson), so it
/// equals H to within the live kernel's own image level (≤ 0.002 dB). Kaiser, N − 1 = (A − 7.95)
/// / (14.36 Δf): over the transition 0.125 … 0.875, 14 taps reach far below −120 dB, so β is set
/// for 120 dB and the kernel is 14 + 2 = 16 taps.
///
/// @unchecked Sendable: `weights` points to a table written once in `make()`, never freed, only read.
struct ResamplingKernel: @unchecked Sendable {
    var weights: UnsafePointer<SIMD4<Float>>

    /// 16 taps (the Kaiser sinc's 14 + 2), as 4 vectors of 4; literals, so the loops unroll.
    static var quads: Int { 4 }
    static var taps: Int { 4 * quads }
    /// Taps before the current frame (the window covers frame − tapsBefore … frame + taps − tapsBefore − 1).
    static var tapsBefore: Int { taps / 2 - 1 }
    /// 512 phases per frame, linearly interpolated between (interpolation error ≈ −125 dB).
    static var rowBits: Int { 9 }
    /// Kaiser β for A = 120 dB.
    static let beta = 0.1102 * (120 - 8.7)
    /// Cutoff, cycles per stored frame.
    static let cutoff = 0.5

    /// Designs the table (kept for the life of the process, see `InterpolationTables`).
    static func make() -> ResamplingKernel {
        let taps = Self.taps, rows = 1 << rowBits
        // Rows 0…rows (the last closes the final interval); row rows − r is row r reversed
        // (the kernel is even), so only half are designed.
        var weights = [[Double]](repeating: [], count: rows + 1)
        for row in 0...(rows / 2) {
            let sinc = kernelRow(taps: taps - 2, fraction: Double(row) / Double(rows), beta: beta)
            // Convolved with (7, 22, 7)/36: tap t of the result covers Kaiser taps t − 2 … t.
            weights[row] = (0..<taps).map { tap in
                (0..<3).reduce(0.0) { sum, m in
                    let k = tap - 2 + m
                    return k < 0 || k >= taps - 2 ? sum : sum + sinc[k] * (m == 1 ? 22 : 7) / 36
                }
            }
            weights[rows - row] = weights[row].reversed()
        }
        let table = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: rows * quads * 2)
        for row in 0..<rows {
            for quad in 0..<quads {
                var weight = SIMD4<Float>(), slope = SIMD4<Float>()
                for lane in 0..<4 {
                    let tap = quad * 4 + lane
                    weight[lane] = Float(weights[row][tap])
                    slope[lane] = Float(weights[row + 1][tap] - weights[row][tap])
                }
                (table + (row * quads + quad) * 2).initialize(to: weight)
                (table + (row * quads + quad) * 2 + 1).initialize(to: slope)
            }
        }
        return ResamplingKernel(weights: UnsafePointer(table))
    }

    /// Weights for taps at offsets −(taps/2 − 1) … taps/2 from the current frame, for a read
    /// position `fraction` frames after it: sinc at `cutoff` under a Kaiser window spanning the
    /// taps, normalised so DC passes at exactly 1.
    private static func kernelRow(taps: Int, fraction: Double, beta: Double) -> [Double] {
        let halfWidth = Double(taps) / 2, windowScale = 1 / WindowedSinc.besselI0Fit(beta)
        let firstX = Double(1 - taps / 2) - fraction
        var weights = (0..<taps).map { tap -> Double in
            let x = firstX + Double(tap)
            let u = 2 * Double.pi * cutoff * x
            let sincValue = u == 0 ? 1 : sin(u) / u
            let r = x / halfWidth
            return abs(r) >= 1 ? 0 : sincValue * WindowedSinc.besselI0Fit(beta * (1 - r * r).squareRoot()) * windowScale
        }
        let sum = weights.reduce(0, +)
        for tap in 0..<taps { weights[tap] /= sum }
        return weights
    }
}

/// Precomputed interpolation weights, built once and read-only afterwards. One set serves every
/// instrument (`shared`, 48 KB); it is an immutable table, never freed. (The pointers are
/// `nonisolated(unsafe)`: written in `init` only, read by every thread after.)
final class InterpolationTables: Sendable {
    static let shared = InterpolationTables()

    /// Fraction bits that select a Hermite row: 10 bits = 1024 rows.
    static let hermiteRowBits = 10

    /// `1 << hermiteRowBits` rows of weights for frames (i − 1, i, i + 1, i + 2).
    nonisolated(unsafe) let hermite: UnsafeMutablePointer<SIMD4<Float>>
    let offline = ResamplingKernel.make()
    /// The largest step each level serves (`LevelLayout.maxSteps`), for picking one per chunk.
    nonisolated(unsafe) let levelSteps: UnsafeMutablePointer<Double>

    private init() {
        precondition(LevelLayout.maxSteps.count == LevelLayout.count, "LevelLayout.count must match its steps")
        levelSteps = .allocate(capacity: LevelLayout.count)
        levelSteps.initialize(from: LevelLayout.maxSteps, count: LevelLayout.count)
        let rows = 1 << Self.hermiteRowBits
        hermite = .allocate(capacity: rows)
        for row in 0..<rows {
            let t = Float(row) / Float(rows)
            let t2 = t * t, t3 = t2 * t
            hermite[row] = SIMD4(
                -0.5 * t3 + t2 - 0.5 * t,
                1.5 * t3 - 2.5 * t2 + 1,
                -1.5 * t3 + 2 * t2 + 0.5 * t,
                0.5 * t3 - 0.5 * t2)
        }
    }
}
