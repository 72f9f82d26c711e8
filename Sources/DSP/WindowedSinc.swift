#if canImport(Glibc)
import Glibc
#endif

/// Windowed-sinc low-pass design (Kaiser window β = 5.3, odd length, linear phase, unity gain
/// at DC). Control-thread code: it allocates and calls trigonometry freely.
///
/// Why Kaiser 5.3 rather than Hamming: at 101 taps both have the same main-lobe width (so the
/// same lowest reachable cutoff), but Hamming's stop band only reaches −47…−53 dB close to the
/// transition, while Kaiser 5.3 stays below −50 dB everywhere past its transition band
/// (`transitionWidthHz` ≈ 1.63 kHz at 48 kHz, from Kaiser's formula). No cutoff can put the −6 dB
/// point below about 0.93·fs/taps (≈ 445 Hz at 48 kHz), where the kernel has degenerated into the
/// window itself.
public enum WindowedSinc {
    /// Kaiser shape parameter: ≈ 56.8 dB stop-band attenuation by Kaiser's formula.
    public static let kaiserBeta = 5.3

    /// Kaiser window value at `n` of `count` (symmetric).
    public static func kaiser(_ n: Int, count: Int, beta: Double = kaiserBeta) -> Double {
        let r = 2 * Double(n) / Double(count - 1) - 1
        return besselI0(beta * (1 - r * r).squareRoot()) / besselI0(beta)
    }

    /// Modified Bessel function of the first kind, order 0 (power series; converges fast for x < 20).
    public static func besselI0(_ x: Double) -> Double {
        var sum = 1.0, term = 1.0, k = 1.0
        let q = x * x / 4
        while term > 1e-12 * sum {
            term *= q / (k * k)
            sum += term
            k += 1
        }
        return sum
    }

    /// Stop-band attenuation in dB that `kaiserBeta` gives (inverse of β = 0.1102·(A − 8.7)).
    public static var stopBandDecibels: Double { kaiserBeta / 0.1102 + 8.7 }

    /// Transition width (pass-band edge to stop-band edge) of the design, in Hz, by Kaiser's
    /// formula Δf = (A − 7.95) / (14.36 · (taps − 1)) · fs. The −6 dB point sits in its middle.
    public static func transitionWidthHz(taps: Int, sampleRate: Double) -> Double {
        (stopBandDecibels - 7.95) / (14.36 * Double(taps - 1)) * sampleRate
    }

    /// Plain design: sinc at `designCutoffHz` (the ideal brick-wall edge) times the Kaiser window,
    /// scaled so the taps sum to 1 (unity DC gain). `taps` must be odd.
    public static func lowPass(designCutoffHz: Double, sampleRate: Double, taps: Int) -> [Float] {
        Design(taps: taps, sampleRate: sampleRate).kernel(designCutoffHz: designCutoffHz)
    }

    /// Magnitude response of real taps at `frequencyHz` (|Σ h[n]·e^{−jωn}|).
    public static func magnitude<C: Collection>(of taps: C, atHz frequencyHz: Double, sampleRate: Double) -> Double
    where C.Element == Float {
        let w = 2 * Double.pi * frequencyHz / sampleRate
        var re = 0.0, im = 0.0
        for (n, h) in taps.enumerated() {
            re += Double(h) * cos(w * Double(n))
            im -= Double(h) * sin(w * Double(n))
        }
        return (re * re + im * im).squareRoot()
    }

    /// Design whose response is exactly one half (−6.02 dB) at `halfGainHz`: the sinc edge is
    /// found by bisection, because with only 101 taps the window's main lobe pulls the half-gain
    /// point of a plain design away from its nominal cutoff (by ≈ 6 % at 500 Hz, 48 kHz).
    /// At or below the reachable floor (see the type's note) the design cutoff is 0: the kernel is
    /// the bare window, the narrowest low-pass of this length, with its half-gain point at the floor.
    public static func lowPass(halfGainHz: Double, sampleRate: Double, taps: Int) -> [Float] {
        Design(taps: taps, sampleRate: sampleRate).kernel(halfGainHz: halfGainHz)
    }

    /// The `designCutoffHz` whose kernel has gain ½ at `halfGainHz`.
    public static func designCutoff(forHalfGainHz halfGainHz: Double, sampleRate: Double, taps: Int) -> Double {
        Design(taps: taps, sampleRate: sampleRate).designCutoff(forHalfGainHz: halfGainHz)
    }

    /// The lowest half-gain frequency any design of this length reaches: where the window's
    /// own response (design cutoff 0) falls to ½.
    public static func floorHz(sampleRate: Double, taps: Int) -> Double {
        Design(taps: taps, sampleRate: sampleRate).floorHz
    }

    /// Designs of one length at one rate. The window and the floor are computed once, and a
    /// kernel's sines and its response's cosines come from recurrences rather than a sin/cos per
    /// tap: a bisection step costs ~2 k instructions instead of ~50 k (the 185-kernel mic bank:
    /// ≈ 7 M instructions instead of 0.38 G).
    public struct Design: Sendable {
        public let taps: Int
        public let sampleRate: Double
        /// The Kaiser window from the centre tap outwards (it is symmetric): m + 1 values.
        private let halfWindow: [Double]
        /// See `WindowedSinc.floorHz`.
        public private(set) var floorHz = 0.0

        public init(taps: Int, sampleRate: Double) {
            precondition(taps >= 3 && taps % 2 == 1, "windowed-sinc designs have an odd number of taps")
            self.taps = taps
            self.sampleRate = sampleRate
            let m = (taps - 1) / 2
            halfWindow = (0...m).map { WindowedSinc.kaiser(m + $0, count: taps) }
            var lo = 0.0, hi = 4 * sampleRate / Double(taps)
            for _ in 0..<40 {
                let mid = (lo + hi) / 2
                if gain(of: halfWindow, atHz: mid) > 0.5 { lo = mid } else { hi = mid }
            }
            floorHz = (lo + hi) / 2
        }

        /// Sinc at `designCutoffHz` times the window, from the centre outwards, unnormalised.
        private func halfKernel(designCutoffHz: Double) -> [Double] {
            let fc = min(max(designCutoffHz, 0), sampleRate / 2) / sampleRate
            // At fc = 0 the sinc vanishes: the kernel is the window itself (the widest low-pass).
            guard fc > 0 else { return halfWindow }
            var h = halfWindow
            h[0] *= 2 * fc
            // sin(a·t) by the recurrence s(t+1) = 2 cos(a)·s(t) − s(t−1).
            let a = 2 * Double.pi * fc, k = 2 * cos(a)
            var previous = 0.0, current = sin(a)
            for t in 1..<h.count {
                h[t] *= current / (Double.pi * Double(t))
                (previous, current) = (current, k * current - previous)
            }
            return h
        }

        /// |H(f)| / H(0) of a symmetric kernel given from its centre outwards (cosines by recurrence).
        private func gain(of half: [Double], atHz frequencyHz: Double) -> Double {
            let w = 2 * Double.pi * frequencyHz / sampleRate, k = 2 * cos(w)
            var previous = 1.0, current = cos(w)
            var response = half[0], dc = half[0]
            for t in 1..<half.count {
                response += 2 * half[t] * current
                dc += 2 * half[t]
                (previous, current) = (current, k * current - previous)
            }
            return abs(response / dc)
        }

        /// See `WindowedSinc.lowPass(designCutoffHz:sampleRate:taps:)`.
        public func kernel(designCutoffHz: Double) -> [Float] {
            let half = halfKernel(designCutoffHz: designCutoffHz)
            let m = half.count - 1
            let sum = half[0] + 2 * half[1...].reduce(0, +)
            return (0..<taps).map { Float(half[abs($0 - m)] / sum) }
        }

        /// See `WindowedSinc.lowPass(halfGainHz:sampleRate:taps:)`.
        public func kernel(halfGainHz: Double) -> [Float] {
            kernel(designCutoffHz: designCutoff(forHalfGainHz: halfGainHz))
        }

        /// See `WindowedSinc.designCutoff(forHalfGainHz:sampleRate:taps:)`.
        public func designCutoff(forHalfGainHz halfGainHz: Double) -> Double {
            if halfGainHz <= floorHz { return 0 }
            // Gain at the target rises monotonically with the design cutoff.
            var lo = 0.0, hi = min(halfGainHz * 1.5 + sampleRate / Double(taps), sampleRate / 2)
            for _ in 0..<40 {
                let mid = (lo + hi) / 2
                if gain(of: halfKernel(designCutoffHz: mid), atHz: halfGainHz) < 0.5 { lo = mid } else { hi = mid }
            }
            return (lo + hi) / 2
        }
    }
}
