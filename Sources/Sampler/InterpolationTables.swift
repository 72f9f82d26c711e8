#if canImport(Glibc)
import Glibc
#endif

/// How the voices read between sample frames.
public enum InterpolationQuality: Sendable, Equatable {
    /// 4-point cubic Hermite (Catmull-Rom) from a 1024-row weight table: a 4-wide dot product per
    /// output sample. Live playback.
    case realtime
    /// 32-tap Kaiser-windowed sinc (β = 9, pass band to 0.9 × Nyquist), 1024 phases linearly
    /// interpolated. Offline rendering.
    case high
}

/// Precomputed interpolation weights, built once on the control thread and read-only afterwards.
final class InterpolationTables {
    /// Fraction bits that select a row: 10 bits = 1024 rows. The phase error of quantizing the
    /// fraction is ≤ 1/2048 frame: −70 dB for a partial at 0.1 × the sample rate.
    static let hermiteRowBits = 10
    static let sincTaps = 32
    /// Taps before the current frame (the window covers frame − 15 … frame + 16).
    static let sincTapsBefore = 15
    static let sincPhaseBits = 10

    /// `1 << hermiteRowBits` rows of weights for frames (i − 1, i, i + 1, i + 2).
    let hermite: UnsafeMutablePointer<SIMD4<Float>>
    /// `(1 << sincPhaseBits) + 1` rows of `sincTaps` weights (the extra row closes the last interval).
    let sinc: UnsafeMutablePointer<Float>

    init() {
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
        let phases = 1 << Self.sincPhaseBits
        sinc = .allocate(capacity: (phases + 1) * Self.sincTaps)
        for phase in 0...phases {
            Self.fillSincRow(sinc + phase * Self.sincTaps, fraction: Double(phase) / Double(phases))
        }
    }

    /// Weights for taps at offsets −15…16 from the current frame, for a read position
    /// `fraction` frames after it; normalised so DC passes at exactly 1.
    private static func fillSincRow(_ row: UnsafeMutablePointer<Float>, fraction: Double) {
        let cutoff = 0.9  // of Nyquist: leaves the window's transition band above the pass band
        let halfWidth = Double(sincTaps) / 2
        let beta = 9.0
        var weights = [Double](repeating: 0, count: sincTaps)
        for tap in 0..<sincTaps {
            let x = Double(tap - sincTapsBefore) - fraction
            let sincValue = x == 0 ? 1 : sin(Double.pi * cutoff * x) / (Double.pi * cutoff * x)
            let r = x / halfWidth
            let window = abs(r) >= 1 ? 0 : besselI0(beta * (1 - r * r).squareRoot()) / besselI0(beta)
            weights[tap] = sincValue * window
        }
        let sum = weights.reduce(0, +)
        for tap in 0..<sincTaps { row[tap] = Float(weights[tap] / sum) }
    }

    /// Modified Bessel function of the first kind, order 0 (power series), for the Kaiser window.
    private static func besselI0(_ x: Double) -> Double {
        var sum = 1.0, term = 1.0
        for k in 1..<40 {
            term *= (x / (2 * Double(k))) * (x / (2 * Double(k)))
            sum += term
        }
        return sum
    }

    deinit {
        hermite.deallocate()
        sinc.deallocate()
    }
}
