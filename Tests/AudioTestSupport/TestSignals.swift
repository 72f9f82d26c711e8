import Foundation

/// Test signals shared by the spectral and mic-effect tests.
extension Measure {
    /// A tone with `harmonics` partials of amplitude 1/h (total peak ≤ 0.5·Σ1/h).
    public static func harmonicTone(_ f0: Double, harmonics: Int, count: Int, sampleRate: Double) -> [Float] {
        (0..<count).map { n in
            var s = 0.0
            for h in 1...harmonics where Double(h) * f0 < sampleRate / 2 {
                s += sin(2 * Double.pi * Double(h) * f0 * Double(n) / sampleRate) / Double(h)
            }
            return Float(0.3 * s)
        }
    }

    /// `Measure.noise` spans [−a, 3a) (mean a), so remove its mean and scale it to `rms`.
    public static func whiteNoise(count: Int, rms: Double, seed: UInt64) -> [Float] {
        let raw = Measure.noise(count: count, amplitude: 1, seed: seed)
        let mean = raw.reduce(0.0) { $0 + Double($1) } / Double(count)
        let centred = raw.map { Float(Double($0) - mean) }
        let gain = Float(rms / Measure.rms(centred))
        return centred.map { $0 * gain }
    }
}
