import MemberwiseInit
#if canImport(Glibc)
import Glibc
#endif

/// Normalised biquad coefficients (a0 = 1): y = b0·x + b1·x₁ + b2·x₂ − a1·y₁ − a2·y₂.
public struct BiquadCoefficients: Sendable, Equatable {
    public var b0, b1, b2, a1, a2: Double

    public init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        (self.b0, self.b1, self.b2, self.a1, self.a2) = (b0, b1, b2, a1, a2)
    }

    /// Passes everything unchanged.
    public static let identity = BiquadCoefficients(b0: 1, b1: 0, b2: 0, a1: 0, a2: 0)

    /// `bandPass` has a 0 dB peak at its centre (`cutoffHz`).
    public enum Kind: Sendable { case lowPass, highPass, bandPass }

    /// Q for a resonance in dB: 0 dB is Butterworth (Q = 1/√2, −3 dB at the cutoff); each dB of
    /// resonance raises the gain at the cutoff by one dB.
    @_noAllocation
    public static func q(resonanceDecibels: Double) -> Double {
        pow(10, resonanceDecibels / 20) / RealTimeMath.sqrt(2)
    }

    /// The RBJ Audio EQ Cookbook filters (bilinear transform of the analog prototype), with the
    /// resonance in dB as the instrument's parameters give it.
    @_noAllocation
    public static func design(_ kind: Kind, cutoffHz: Double, resonanceDecibels: Double, sampleRate: Double) -> BiquadCoefficients {
        design(kind, cutoffHz: cutoffHz, q: q(resonanceDecibels: resonanceDecibels), sampleRate: sampleRate)
    }

    /// The same with Q given directly.
    @_noAllocation
    public static func design(_ kind: Kind, cutoffHz: Double, q: Double, sampleRate: Double) -> BiquadCoefficients {
        let f = min(max(cutoffHz, 1), sampleRate * 0.49)
        let w0 = 2 * Double.pi * f / sampleRate
        let alpha = sin(w0) / (2 * q)
        let cw = cos(w0)
        let a0 = 1 + alpha
        switch kind {
        case .lowPass:
            let b = (1 - cw) / 2
            return BiquadCoefficients(b0: b / a0, b1: 2 * b / a0, b2: b / a0, a1: -2 * cw / a0, a2: (1 - alpha) / a0)
        case .highPass:
            let b = (1 + cw) / 2
            return BiquadCoefficients(b0: b / a0, b1: -2 * b / a0, b2: b / a0, a1: -2 * cw / a0, a2: (1 - alpha) / a0)
        case .bandPass:
            return BiquadCoefficients(b0: alpha / a0, b1: 0, b2: -alpha / a0, a1: -2 * cw / a0, a2: (1 - alpha) / a0)
        }
    }

    /// |H(e^{jω})| at `frequencyHz`, evaluated from the transfer function (the analytic response
    /// the filter tests compare against).
    public func magnitude(atHz frequencyHz: Double, sampleRate: Double) -> Double {
        let w = 2 * Double.pi * frequencyHz / sampleRate
        let (c1, s1, c2, s2) = (cos(w), sin(w), cos(2 * w), sin(2 * w))
        let nr = b0 + b1 * c1 + b2 * c2, ni = -(b1 * s1 + b2 * s2)
        let dr = 1 + a1 * c1 + a2 * c2, di = -(a1 * s1 + a2 * s2)
        return ((nr * nr + ni * ni) / (dr * dr + di * di)).squareRoot()
    }
}

/// A stereo biquad (transposed direct form II, state in Double so low cutoffs stay quiet and exact).
/// Render-thread safe; coefficients can change every block (the state carries over, so sweeps are smooth
/// when the cutoff itself is smoothed).
@PublicInit
public struct StereoBiquad {
    public var coefficients: BiquadCoefficients = .identity
    @usableFromInline var state: (l1: Double, l2: Double, r1: Double, r2: Double) = (0, 0, 0, 0)

    @_noAllocation
    public mutating func reset() { state = (0, 0, 0, 0) }

    /// Filters `block` in place.
    @inlinable
    @_noAllocation
    public mutating func process(_ block: StereoBlock) {
        let c = coefficients
        var (l1, l2, r1, r2) = state
        for i in 0..<block.frames {
            let xl = Double(block.left[i])
            let yl = c.b0 * xl + l1
            l1 = c.b1 * xl - c.a1 * yl + l2
            l2 = c.b2 * xl - c.a2 * yl
            block.left[i] = Float(yl)
            let xr = Double(block.right[i])
            let yr = c.b0 * xr + r1
            r1 = c.b1 * xr - c.a1 * yr + r2
            r2 = c.b2 * xr - c.a2 * yr
            block.right[i] = Float(yr)
        }
        // Flush denormals that decaying state would otherwise leave behind.
        if abs(l1) < 1e-30 { l1 = 0 }
        if abs(l2) < 1e-30 { l2 = 0 }
        if abs(r1) < 1e-30 { r1 = 0 }
        if abs(r2) < 1e-30 { r2 = 0 }
        state = (l1, l2, r1, r2)
    }
}
