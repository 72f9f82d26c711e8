#if canImport(Glibc)
import Glibc
#endif
import DSP

/// How the voices read between sample frames.
public enum InterpolationQuality: Sendable, Equatable {
    /// Band-limited: a 12-tap Kaiser-windowed sinc on the band-limited level for the step (see
    /// `ResamplingKernel.live`, `BandLimitedLevels`). Live playback.
    case realtime
    /// The same at 16 taps and −120 dB (see `ResamplingKernel.offline`). Offline rendering.
    case high
    /// The former live kernel, 4-point cubic Hermite with no anti-aliasing, reading the 2×
    /// level 0 whatever the step: kept as the benchmark baseline only (its cost per voice-sample
    /// is the same as on the plain sample). A 15 kHz partial moved up an octave comes back as an
    /// 18 kHz alias at full level.
    case cubic
}

/// The one short polyphase kernel every band-limited read uses: a Kaiser-windowed sinc at a fixed
/// cutoff, `rows` phases of `quads` (weight, slope) pairs of `SIMD4` (the taps of a row are
/// weight + fraction × slope, linearly interpolating to the next row). Plain data.
///
/// Why fixed and short: the levels (`BandLimitedLevels`) hold content only up to 0.25 cycles per
/// stored frame, with a flat pass band to 0.225 (0.9 × the edge), so the kernel needs a pass band
/// to 0.225 and a stop band from 0.75 only — a transition 0.5 wide, where the former kernel, whose
/// cutoff followed the step on the plain sample, needed one of ~0.18 and 32 × step taps. Cutoff at
/// 0.5, so that row 0 is the identity (a frame read at its own position comes back unchanged);
/// Kaiser, N − 1 = (A − 7.95) / (14.36 Δf): 12 taps reach −85 dB over 0.256 … 0.744, 16 taps
/// −120 dB over 0.26 … 0.74 (the images of the levels' transition band, 0.225 … 0.25, fall in
/// the kernel's and are attenuated by both).
struct ResamplingKernel: @unchecked Sendable {
    var weights: UnsafePointer<SIMD4<Float>>
    var quads: Int
    /// Taps before the current frame (the window covers frame − tapsBefore … frame + taps − tapsBefore − 1).
    var tapsBefore: Int
    var rowBits: Int
    /// The largest step each level serves (`BandLimitedLevels.specs`), for picking one per chunk.
    var levelSteps: UnsafePointer<Double>

    struct Design {
        var taps: Int
        var beta: Double
        /// Phases per frame (linearly interpolated between).
        var rowBits: Int
    }

    /// Cutoff, cycles per stored frame.
    static let cutoff = 0.5
    /// 12 taps, β 8.4 (A = 85 dB), 256 phases: linear interpolation between phases errs by
    /// ≤ (2π·0.25)²/(8·256²) ≈ −113 dB of a partial at the levels' edge.
    static let live = Design(taps: 12, beta: 0.1102 * (85 - 8.7), rowBits: 8)
    /// 16 taps, β 12.3 (A = 120 dB), 512 phases (interpolation error ≈ −125 dB). At A = 115 the
    /// 15 kHz sine's image at +1 semitone measured −111.8 dBc, too close to the −110 bound.
    static let offline = Design(taps: 16, beta: 0.1102 * (120 - 8.7), rowBits: 9)

    /// Designs the table (kept for the life of the process, see `InterpolationTables`).
    static func make(_ design: Design) -> ResamplingKernel {
        let taps = design.taps, rows = 1 << design.rowBits
        // Rows 0…rows (the last closes the final interval); row rows − r is row r reversed
        // (the kernel is even), so only half are designed.
        var weights = [[Double]](repeating: [], count: rows + 1)
        for row in 0...(rows / 2) {
            weights[row] = kernelRow(taps: taps, fraction: Double(row) / Double(rows), beta: design.beta)
            weights[rows - row] = weights[row].reversed()
        }
        let quads = taps / 4
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
        let steps = UnsafeMutablePointer<Double>.allocate(capacity: BandLimitedLevels.count)
        steps.initialize(from: BandLimitedLevels.specs.map(\.maxStep), count: BandLimitedLevels.count)
        return ResamplingKernel(
            weights: UnsafePointer(table), quads: quads, tapsBefore: taps / 2 - 1, rowBits: design.rowBits, levelSteps: steps)
    }

    /// Weights for taps at offsets −(taps/2 − 1) … taps/2 from the current frame, for a read
    /// position `fraction` frames after it: sinc at `cutoff` under a Kaiser window spanning the
    /// taps, normalised so DC passes at exactly 1.
    private static func kernelRow(taps: Int, fraction: Double, beta: Double) -> [Double] {
        let halfWidth = Double(taps) / 2, windowScale = 1 / BandLimitedLevels.besselI0(beta)
        let firstX = Double(1 - taps / 2) - fraction
        var weights = (0..<taps).map { tap -> Double in
            let x = firstX + Double(tap)
            let u = 2 * Double.pi * cutoff * x
            let sincValue = u == 0 ? 1 : sin(u) / u
            let r = x / halfWidth
            return abs(r) >= 1 ? 0 : sincValue * BandLimitedLevels.besselI0(beta * (1 - r * r).squareRoot()) * windowScale
        }
        let sum = weights.reduce(0, +)
        for tap in 0..<taps { weights[tap] /= sum }
        return weights
    }
}

/// Precomputed interpolation weights, built once and read-only afterwards. One set serves every
/// instrument (`shared`, 56 KB); it is an immutable table, never freed.
final class InterpolationTables: Sendable {
    static let shared = InterpolationTables()

    /// Fraction bits that select a Hermite row: 10 bits = 1024 rows.
    static let hermiteRowBits = 10

    /// `1 << hermiteRowBits` rows of weights for frames (i − 1, i, i + 1, i + 2).
    nonisolated(unsafe) let hermite: UnsafeMutablePointer<SIMD4<Float>>
    let live = ResamplingKernel.make(ResamplingKernel.live)
    let offline = ResamplingKernel.make(ResamplingKernel.offline)

    private init() {
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
