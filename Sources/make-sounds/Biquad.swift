import DSP

/// Runs one biquad section (coefficients from DSP's RBJ designs) sample by sample in Double,
/// to colour noise for the drum sounds. Offline use only.
struct Biquad {
    private let c: BiquadCoefficients
    private var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0

    static func highPass(cutoffHz: Double, q: Double, sampleRate: Double) -> Biquad {
        Biquad(c: .design(.highPass, cutoffHz: cutoffHz, q: q, sampleRate: sampleRate))
    }

    static func bandPass(centerHz: Double, q: Double, sampleRate: Double) -> Biquad {
        Biquad(c: .design(.bandPass, cutoffHz: centerHz, q: q, sampleRate: sampleRate))
    }

    mutating func process(_ x: Double) -> Double {
        let y = c.b0 * x + c.b1 * x1 + c.b2 * x2 - c.a1 * y1 - c.a2 * y2
        x2 = x1; x1 = x; y2 = y1; y1 = y
        return y
    }
}
