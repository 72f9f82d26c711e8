#if canImport(Glibc)
import Glibc
#endif
import DSP

/// How the voices read between sample frames.
public enum InterpolationQuality: Sendable, Equatable {
    /// Band-limited: a 24-tap Kaiser-windowed sinc whose cutoff follows the pitch step (see
    /// `ResamplingBank.live`). Live playback.
    case realtime
    /// The same design at 48 taps and −113 dB (see `ResamplingBank.offline`). Offline rendering.
    case high
    /// The former live kernel, 4-point cubic Hermite with no anti-aliasing: kept as the
    /// benchmark baseline only. A 15 kHz partial moved up an octave comes back as an 18 kHz alias
    /// at full level, and even at +1 semitone its images are only 17 dB down.
    case cubic
}

/// One table of a `ResamplingBank`: polyphase weights for one range of pitch steps. Plain data.
struct ResamplingBand {
    /// `rows` phases of `quads` (weight, slope) pairs of `SIMD4`: the taps of a row are
    /// weight + fraction × slope, linearly interpolating to the next row.
    var weights: UnsafePointer<SIMD4<Float>>
    var quads: Int
    /// Taps before the current frame (the window covers frame − tapsBefore … frame + taps − tapsBefore − 1).
    var tapsBefore: Int
}

/// Windowed-sinc tables whose cutoff follows the pitch step, one band per 1/`bandsPerOctave`
/// of an octave of upward step.
///
/// Why this and not the 4-point kernel: a 4-point kernel's image rejection depends only on how
/// far below the Nyquist the partial lies. Measured on its continuous response, Catmull-Rom
/// leaves images of a partial at 0.31 × the source rate (15 kHz at 48 kHz) at −17 dB, at 0.156 at
/// −38 dB, and reaches −80 dB only below 0.035: 13× oversampled storage. Per-octave mip-maps read
/// with it would need that oversampling too, and a level decimated by 2^k cannot hold the
/// partials between its own Nyquist and the output's for steps between 2^(k−1) and 2^k. A short
/// windowed sinc reaches −80 dB on unoversampled data, so the step-following sinc is the cheaper
/// way to the guarantee; its cost grows with the step (s × the taps for s > 1), which mip-maps
/// would bound for steps above 2 (not done: loops would need levels whose loop length stays
/// whole, see the report of issue 12).
///
/// Steps ≤ 1 (band 0): cutoff at the source Nyquist; partials up to 0.5 − w (w: half the
/// Kaiser transition width) pass, their images are ≥ the stop-band level down. Steps s > 1: the
/// kernel is stretched by the band's upper step and its stop band starts at the output Nyquist,
/// so nothing above it folds back: partials up to 0.5 − 2w of the output rate pass, everything
/// else is removed before it can alias. Live: 32 taps, β 8 (−80 dB): 16 kHz pass band for
/// upward steps at 48 kHz, 20 kHz at or below the root. Offline: 64 taps, β 11.5 (−113 dB),
/// 18 kHz. Bands stop at `maxStep` (4: +24 semitones, or a sample at 4× the output rate at its
/// root); above it the last band is used (the built-in one-cycle tables step far beyond it, but
/// their only partial lies far below any cutoff).
struct ResamplingBank: @unchecked Sendable {
    var bands: UnsafeMutablePointer<ResamplingBand>
    var bandCount: Int
    var bandsPerOctave: Double
    var rowBits: Int

    struct Design {
        var baseTaps: Int
        var beta: Double
        var bandsPerOctave: Int
        /// Phases per frame (linearly interpolated between).
        var rowBits: Int

        /// Half the transition width, cycles per output frame, by Kaiser's formula
        /// Δf = (A − 7.95) / (14.36 (N − 1)) with A = β / 0.1102 + 8.7, and 10 % to spare.
        var halfTransition: Double {
            1.1 * (beta / 0.1102 + 8.7 - 7.95) / (14.36 * Double(baseTaps - 1)) / 2
        }
    }

    /// 32 taps, β 8 (stop band −80 dB), 256 phases: the linear interpolation between phases
    /// errs by ≤ (2π·0.4)²/(8·256²) ≈ −98 dB of a partial at the band edge.
    static let live = Design(baseTaps: 32, beta: 8, bandsPerOctave: 8, rowBits: 8)
    /// 64 taps, β 11.5 (−113 dB), 512 phases (interpolation error ≈ −116 dB at 18 kHz).
    static let offline = Design(baseTaps: 64, beta: 11.5, bandsPerOctave: 4, rowBits: 9)
    /// Largest step with its own band.
    static let maxStep = 4.0

    /// Most taps any band of either design reads before and after the current frame.
    static let maxTapsBefore = taps(offline, band: bandIndex(maxStep, bandsPerOctave: Double(offline.bandsPerOctave))) / 2 - 1
    static let maxTapsAfter = maxTapsBefore + 1

    /// Band for step `ratio` (source frames per output frame): 0 for steps ≤ 1.
    @inline(__always)
    func band(for ratio: Double) -> ResamplingBand {
        let index = ratio <= 1 ? 0 : Int((log2(ratio) * bandsPerOctave).rounded(.up))
        return bands[min(index, bandCount - 1)]
    }

    private static func bandIndex(_ step: Double, bandsPerOctave: Double) -> Int {
        Int((log2(step) * bandsPerOctave).rounded(.up))
    }

    /// Taps of band `band`: the base count stretched by the band's upper step, in whole SIMD4s.
    private static func taps(_ design: Design, band: Int) -> Int {
        let stretch = exp2(Double(band) / Double(design.bandsPerOctave))
        return (Int((Double(design.baseTaps) * stretch).rounded(.up)) + 3) / 4 * 4
    }

    /// Designs every band (kept for the life of the process, see `InterpolationTables`).
    static func make(_ design: Design) -> ResamplingBank {
        let count = bandIndex(maxStep, bandsPerOctave: Double(design.bandsPerOctave)) + 1
        let bands = UnsafeMutablePointer<ResamplingBand>.allocate(capacity: count)
        for index in 0..<count {
            let taps = Self.taps(design, band: index)
            let stretch = exp2(Double(index) / Double(design.bandsPerOctave))
            // Stop band from the output Nyquist for upward steps (cutoff 0.5 − w, in output cycles).
            let cutoff = index == 0 ? 0.5 : 0.5 - design.halfTransition
            let table = makeBand(taps: taps, stretch: stretch / (2 * cutoff), beta: design.beta, rows: 1 << design.rowBits)
            (bands + index).initialize(to: ResamplingBand(weights: UnsafePointer(table), quads: taps / 4, tapsBefore: taps / 2 - 1))
        }
        return ResamplingBank(bands: bands, bandCount: count, bandsPerOctave: Double(design.bandsPerOctave), rowBits: design.rowBits)
    }

    /// `rows` rows of (weight, slope) quads for the kernel sin(πx / stretch) / (πx / stretch)
    /// (cutoff 0.5 / stretch cycles per source frame) under a Kaiser window spanning the taps, each row normalised so DC passes at exactly 1.
    private static func makeBand(taps: Int, stretch: Double, beta: Double, rows: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
        // Rows 0…rows (the last closes the final interval); row rows − r is row r reversed
        // (the kernel is even), so only half are designed.
        var weights = [[Double]](repeating: [], count: rows + 1)
        for row in 0...(rows / 2) {
            weights[row] = kernelRow(taps: taps, fraction: Double(row) / Double(rows), stretch: stretch, beta: beta)
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
        return table
    }

    /// Weights for taps at offsets −(taps/2 − 1) … taps/2 from the current frame, for a read
    /// position `fraction` frames after it.
    private static func kernelRow(taps: Int, fraction: Double, stretch: Double, beta: Double) -> [Double] {
        let halfWidth = Double(taps) / 2, windowScale = 1 / besselI0(beta)
        let firstX = Double(1 - taps / 2) - fraction
        var weights = (0..<taps).map { tap -> Double in
            let x = firstX + Double(tap)
            let u = Double.pi * x / stretch
            let sincValue = u == 0 ? 1 : sin(u) / u
            let r = x / halfWidth
            return abs(r) >= 1 ? 0 : sincValue * besselI0(beta * (1 - r * r).squareRoot()) * windowScale
        }
        let sum = weights.reduce(0, +)
        for tap in 0..<taps { weights[tap] /= sum }
        return weights
    }

    /// I₀ by the polynomial fits of Abramowitz & Stegun 9.8.1–2 (relative error < 2·10⁻⁷, i.e.
    /// −134 dB on a weight): the tables take ~800 000 window values, and the power series
    /// (`WindowedSinc.besselI0`, ~30 divisions each at β 11.5) made them most of the start-up cost.
    private static func besselI0(_ x: Double) -> Double {
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

/// Precomputed interpolation weights, built once and read-only afterwards. One set serves every
/// instrument (`shared`: 12 MB and ~0.1 s to design, so not per instrument); it is an immutable
/// table, never freed.
final class InterpolationTables: Sendable {
    static let shared = InterpolationTables()

    /// Fraction bits that select a Hermite row: 10 bits = 1024 rows.
    static let hermiteRowBits = 10

    /// `1 << hermiteRowBits` rows of weights for frames (i − 1, i, i + 1, i + 2).
    nonisolated(unsafe) let hermite: UnsafeMutablePointer<SIMD4<Float>>
    let live = ResamplingBank.make(ResamplingBank.live)
    let offline = ResamplingBank.make(ResamplingBank.offline)

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
