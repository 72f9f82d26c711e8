import Foundation

/// The frequency response FluidSynth's default 4-point (Catmull-Rom) interpolation gives a
/// sample's content: the gain of a partial at `ν` of the sample's rate, averaged over the
/// fractional positions a transposed note reads at (the part that stays at the partial's
/// frequency; the rest becomes images). It dulls the top of every sample: −0.04 dB at ν = 0.125,
/// −0.55 dB at 0.25, −3.6 dB at 0.425. Our band-limited transposition is flat there, on purpose
/// (docs/SOUNDFONTS.md); the note comparison passes our render through this response so that it
/// compares the envelope and level of the same content, not the interpolation. Measured against
/// FluidSynth 2.3.1 on TimGM6mb's crash cymbal (key 57): ours − FluidSynth's +0.42, +0.91, +1.42,
/// +2.37, +3.46 dB at ν = 0.2…0.45 in steps of 0.05, where this response gives +0.37, +0.77,
/// +1.41, +2.32, +3.56 dB.
public enum FluidSynthInterpolation {
    static let tableSize = 1024
    /// Gain at ν = i / (2 · tableSize), i = 0…tableSize.
    static let table: [Double] = (0...tableSize).map { coherentGain(at: 0.5 * Double($0) / Double(tableSize)) }

    /// The gain at `ν` (0…0.5 of the sample's rate; 0 past it), interpolated from the table.
    public static func gain(at ν: Double) -> Double {
        guard ν < 0.5 else { return 0 }
        let position = max(0, ν) * 2 * Double(tableSize)
        let i = Int(position), fraction = position - Double(i)
        return table[i] + fraction * (table[min(i + 1, tableSize)] - table[i])
    }

    /// |mean over x of Σ c_k(x) e^(−iω(k − 1 − x))|, the four points at −1, 0, 1, 2 around the read
    /// position x ∈ [0, 1) (fluid_rvoice_dsp.c's interp_coeff).
    static func coherentGain(at ν: Double) -> Double {
        let omega = 2 * Double.pi * ν, steps = 256
        var re = 0.0, im = 0.0
        for s in 0..<steps {
            let x = (Double(s) + 0.5) / Double(steps)
            let c = [x * (-0.5 + x * (1 - 0.5 * x)), 1 + x * x * (1.5 * x - 2.5), x * (0.5 + x * (2 - 1.5 * x)), 0.5 * x * x * (x - 1)]
            for k in 0..<4 {
                let phase = -omega * (Double(k) - 1 - x)
                re += c[k] * cos(phase)
                im += c[k] * sin(phase)
            }
        }
        return (re * re + im * im).squareRoot() / Double(steps)
    }
}
