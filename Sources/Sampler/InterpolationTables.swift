#if canImport(Glibc)
import Glibc
#endif
import DSP

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
        // Row `phases − p` is row `p` reversed (the kernel is even in x): design half, mirror half.
        for phase in 0...(phases / 2) {
            let row = sinc + phase * Self.sincTaps
            Self.fillSincRow(row, fraction: Double(phase) / Double(phases))
            let mirror = sinc + (phases - phase) * Self.sincTaps
            for tap in 0..<Self.sincTaps { mirror[tap] = row[Self.sincTaps - 1 - tap] }
        }
    }

    /// Weights for taps at offsets −15…16 from the current frame, for a read position
    /// `fraction` frames after it; normalised so DC passes at exactly 1. The sines come from the
    /// recurrence sin(θ + δ) = 2 cos δ · sin θ − sin(θ − δ): two sin calls per row, not one per tap.
    private static func fillSincRow(_ row: UnsafeMutablePointer<Float>, fraction: Double) {
        let cutoff = 0.9  // of Nyquist: leaves the window's transition band above the pass band
        let halfWidth = Double(sincTaps) / 2
        let beta = 9.0, windowScale = 1 / WindowedSinc.besselI0(beta)
        let step = Double.pi * cutoff, k = 2 * cos(step)
        let firstX = Double(-sincTapsBefore) - fraction
        var previous = sin(step * (firstX - 1)), current = sin(step * firstX)
        var weights = [Double](repeating: 0, count: sincTaps)
        for tap in 0..<sincTaps {
            let x = firstX + Double(tap)
            let sincValue = x == 0 ? 1 : current / (step * x)
            let r = x / halfWidth
            let window = abs(r) >= 1 ? 0 : WindowedSinc.besselI0(beta * (1 - r * r).squareRoot()) * windowScale
            weights[tap] = sincValue * window
            (previous, current) = (current, k * current - previous)
        }
        let sum = weights.reduce(0, +)
        for tap in 0..<sincTaps { row[tap] = Float(weights[tap] / sum) }
    }

    deinit {
        hermite.deallocate()
        sinc.deallocate()
    }
}
