import Foundation

/// The frequency response FluidSynth's default 4-point (Catmull-Rom) interpolation gives a
/// sample's content: the gain of a partial at ν of the sample's rate, averaged over the
/// fractional positions a note reads at (the part that stays at the partial's frequency; the rest
/// becomes images). A note read at a step of p/q source frames per output frame (q ≤ 64) visits
/// only the fractions k/q — at the sample's own rate and root only 0, where the interpolation is
/// the sample itself; any other step visits them all, and the response dulls the top of the
/// sample: −0.04 dB at ν = 0.125, −0.55 dB at 0.25, −3.6 dB at 0.425. Our band-limited
/// transposition is flat there, on purpose (docs/SOUNDFONTS.md); the note comparison passes our
/// render through this response so that it compares the envelope and level of the same content,
/// not the interpolation. Measured against FluidSynth 2.3.1 on TimGM6mb's crash cymbal (key 57,
/// step 0.32): ours − FluidSynth's +0.42, +0.91, +1.42, +2.37, +3.46 dB at ν = 0.2…0.45 in steps
/// of 0.05, where this response gives +0.37, +0.77, +1.41, +2.32, +3.56 dB.
public struct FluidSynthInterpolation: Sendable {
    static let tableSize = 1024
    /// Gain at ν = i / (2 · tableSize), i = 0…tableSize.
    let table: [Double]

    public init(step: Double) {
        let fractions = Self.fractions(step: step)
        table = (0...Self.tableSize).map { Self.coherentGain(at: 0.5 * Double($0) / Double(Self.tableSize), fractions: fractions) }
    }

    /// The gain at `ν` (0…0.5 of the sample's rate; 0 past it), interpolated from the table.
    public func gain(at ν: Double) -> Double {
        guard ν < 0.5 else { return 0 }
        let position = max(0, ν) * 2 * Double(Self.tableSize)
        let i = Int(position), fraction = position - Double(i)
        return table[i] + fraction * (table[min(i + 1, Self.tableSize)] - table[i])
    }

    /// The read positions' fractions a note at `step` visits from a sample's start: k/q when the
    /// step is p/q to within what 2.5 s of frames could tell apart, else 256 spread evenly.
    static func fractions(step: Double) -> [Double] {
        for q in 1...64 where abs(step * Double(q) - (step * Double(q)).rounded()) < 1e-7 {
            return (0..<q).map { Double($0) / Double(q) }
        }
        return (0..<256).map { (Double($0) + 0.5) / 256 }
    }

    /// |mean over x of Σ c_k(x) e^(−iω(k − 1 − x))|, the four points at −1, 0, 1, 2 around the read
    /// position x ∈ [0, 1) (fluid_rvoice_dsp.c's interp_coeff).
    static func coherentGain(at ν: Double, fractions: [Double]) -> Double {
        let omega = 2 * Double.pi * ν
        var re = 0.0, im = 0.0
        for x in fractions {
            let c = [x * (-0.5 + x * (1 - 0.5 * x)), 1 + x * x * (1.5 * x - 2.5), x * (0.5 + x * (2 - 1.5 * x)), 0.5 * x * x * (x - 1)]
            for k in 0..<4 {
                let phase = -omega * (Double(k) - 1 - x)
                re += c[k] * cos(phase)
                im += c[k] * sin(phase)
            }
        }
        return (re * re + im * im).squareRoot() / Double(fractions.count)
    }
}
