import Foundation

/// Measures of send effects: reverberation time and a modulated delay.
extension Measure {
    /// Reverberation time from an impulse response by Schroeder backward integration: the energy
    /// decay curve EDC(t) = Σ_{τ≥t} h²(τ) in dB, a least-squares line fitted between `from` and
    /// `to` dB (−5…−35 is T30, −5…−25 is T20), extrapolated to 60 dB.
    public static func schroederRT60(_ h: [Float], sampleRate: Double, from: Double = -5, to: Double = -35) -> Double {
        var edc = [Double](repeating: 0, count: h.count)
        var sum = 0.0
        for i in stride(from: h.count - 1, through: 0, by: -1) {
            sum += Double(h[i]) * Double(h[i])
            edc[i] = sum
        }
        let total = edc[0]
        var (n, st, sy, stt, sty) = (0.0, 0.0, 0.0, 0.0, 0.0)
        for i in 0..<h.count {
            let db = 10 * log10(max(edc[i] / total, 1e-30))
            guard db <= from && db >= to else { continue }
            let t = Double(i) / sampleRate
            n += 1; st += t; sy += db; stt += t * t; sty += t * db
        }
        let slope = (n * sty - st * sy) / (n * stt - st * st)  // dB per second
        return -60 / slope
    }

    /// The delay of `y` behind a `probeHz` sine over time (ms), one estimate every `hop` frames,
    /// unambiguous for delays shorter than its period:
    /// lock-in demodulation, y·e^{−jωn} averaged over one probe period gives e^{−jωD}/(2j).
    public static func delayTrack(_ y: [Float], probeHz: Double, sampleRate: Double, hop: Int) -> [Double] {
        let period = Int((sampleRate / probeHz).rounded())
        var re = [0.0], im = [0.0]
        for (n, v) in y.enumerated() {
            let theta = 2 * Double.pi * probeHz * Double(n) / sampleRate
            re.append(re.last! + Double(v) * cos(theta))
            im.append(im.last! - Double(v) * sin(theta))
        }
        return stride(from: 0, to: y.count - period, by: hop).map { start in
            // 2j·(a + jb) = −2b + 2ja; its angle is −ωD.
            let a = re[start + period] - re[start], b = im[start + period] - im[start]
            var angle = -atan2(2 * a, -2 * b)
            angle -= 2 * Double.pi * (angle / (2 * Double.pi)).rounded(.down)
            return 1000 * angle / (2 * Double.pi * probeHz)
        }
    }
}
