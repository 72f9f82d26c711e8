import Foundation

/// Measuring tools shared by the test targets. They measure audio the way an engineer would:
/// frequency in cents, level in dB, discontinuities relative to a smooth continuation.
/// They run on the test thread only and are free to allocate.
public enum Measure {
    /// Level of a linear amplitude in dBFS (floor at −200).
    public static func decibels(_ amplitude: Double) -> Double {
        amplitude > 1e-10 ? 20 * log10(amplitude) : -200
    }

    /// Distance from `frequency` to `reference` in cents.
    public static func cents(_ frequency: Double, relativeTo reference: Double) -> Double {
        1200 * log2(frequency / reference)
    }

    /// Equal-tempered frequency of a MIDI note (A4 = 69 = 440 Hz).
    public static func noteFrequency(_ note: Double) -> Double {
        440 * pow(2, (note - 69) / 12)
    }

    public static func peak(_ x: ArraySlice<Float>) -> Double {
        Double(x.reduce(0) { max($0, abs($1)) })
    }

    public static func peak(_ x: [Float]) -> Double { peak(x[...]) }

    public static func rms(_ x: ArraySlice<Float>) -> Double {
        guard !x.isEmpty else { return 0 }
        let sum = x.reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(x.count)).squareRoot()
    }

    public static func rms(_ x: [Float]) -> Double { rms(x[...]) }

    /// RMS of both channels over their first `frames` frames (silence past their end), dB.
    public static func stereoRMSDecibels(_ left: [Float], _ right: [Float], frames: Int) -> Double {
        var sum = 0.0
        for i in 0..<min(left.count, frames) { sum += Double(left[i] * left[i]) + Double(right[i] * right[i]) }
        return 10 * log10(max(sum / Double(2 * frames), 1e-30))
    }

    /// Largest deviation of a sample from the quadratic continuation of the three before it
    /// (the third difference). A step of size d shows up as d; a smooth tone at frequency f and
    /// amplitude A shows up as only A·(2πf/fs)³ (≈ 1e-4 for 440 Hz at 0.5), so a click of −60 dBFS
    /// (0.001) stands out clearly. This is what "no step above −60 dBFS" is measured with.
    public static func maxDiscontinuity(_ x: ArraySlice<Float>) -> Double {
        guard x.count >= 4 else { return 0 }
        var worst = 0.0
        let a = Array(x)
        for n in 3..<a.count {
            let d = Double(a[n]) - 3 * Double(a[n - 1]) + 3 * Double(a[n - 2]) - Double(a[n - 3])
            worst = max(worst, abs(d))
        }
        return worst
    }

    public static func maxDiscontinuity(_ x: [Float]) -> Double { maxDiscontinuity(x[...]) }

    /// Frequency of a clean periodic tone from its rising zero crossings (linearly interpolated),
    /// averaged over every whole period in the signal. Accurate to well under 0.1 cent on a sine of
    /// a second or more. Returns nil when fewer than two crossings exist.
    public static func zeroCrossingFrequency(_ x: ArraySlice<Float>, sampleRate: Double) -> Double? {
        let a = Array(x)
        var first: Double?
        var last = 0.0
        var count = 0
        for n in 1..<a.count where a[n - 1] < 0 && a[n] >= 0 {
            let t = Double(n - 1) + Double(-a[n - 1]) / Double(a[n] - a[n - 1])
            if first == nil { first = t }
            last = t
            count += 1
        }
        guard let first, count >= 2, last > first else { return nil }
        return Double(count - 1) * sampleRate / (last - first)
    }

    public static func zeroCrossingFrequency(_ x: [Float], sampleRate: Double) -> Double? {
        zeroCrossingFrequency(x[...], sampleRate: sampleRate)
    }

    /// Complex DFT coefficient of `x` at `frequency` under a Hann window, normalised so a sine of
    /// amplitude A at exactly that frequency gives magnitude A.
    public static func windowedDFT(_ x: ArraySlice<Float>, frequency: Double, sampleRate: Double) -> (re: Double, im: Double) {
        let n = x.count
        guard n > 1 else { return (0, 0) }
        var re = 0.0, im = 0.0, wsum = 0.0
        let w = 2 * Double.pi * frequency / sampleRate
        var i = 0
        for s in x {
            let win = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(n - 1))
            re += Double(s) * win * cos(w * Double(i))
            im -= Double(s) * win * sin(w * Double(i))
            wsum += win
            i += 1
        }
        return (2 * re / wsum, 2 * im / wsum)
    }

    /// Amplitude of the component at `frequency` (Hann-windowed, see `windowedDFT`).
    public static func amplitude(_ x: ArraySlice<Float>, at frequency: Double, sampleRate: Double) -> Double {
        let c = windowedDFT(x, frequency: frequency, sampleRate: sampleRate)
        return (c.re * c.re + c.im * c.im).squareRoot()
    }

    public static func amplitude(_ x: [Float], at frequency: Double, sampleRate: Double) -> Double {
        amplitude(x[...], at: frequency, sampleRate: sampleRate)
    }

    /// Precise frequency of the partial nearest `guess`: the phase advance of a windowed DFT between
    /// two overlapping windows (the phase-vocoder estimate). Works on harmonic tones as long as the
    /// partial is isolated by the window (`window` samples ≫ sampleRate / spacing).
    public static func refinedFrequency(
        _ x: ArraySlice<Float>, near guess: Double, sampleRate: Double, window: Int = 8192, hop: Int = 64
    ) -> Double {
        let start = x.startIndex
        precondition(x.count >= window + hop, "signal too short for the analysis window")
        let a = windowedDFT(x[start..<start + window], frequency: guess, sampleRate: sampleRate)
        let b = windowedDFT(x[start + hop..<start + hop + window], frequency: guess, sampleRate: sampleRate)
        let expected = 2 * Double.pi * guess * Double(hop) / sampleRate
        var delta = atan2(b.im, b.re) - atan2(a.im, a.re) - expected
        delta = delta - 2 * Double.pi * (delta / (2 * Double.pi)).rounded()
        return guess + delta * sampleRate / (2 * Double.pi * Double(hop))
    }

    /// Two-stage pitch measurement: zero crossings for the rough value, then `refinedFrequency`.
    /// For harmonic-rich tones give `guess` (e.g. the expected note's frequency).
    public static func frequency(_ x: ArraySlice<Float>, sampleRate: Double, guess: Double? = nil) -> Double? {
        guard let rough = guess ?? zeroCrossingFrequency(x, sampleRate: sampleRate) else { return nil }
        var f = rough
        for _ in 0..<3 { f = refinedFrequency(x, near: f, sampleRate: sampleRate, window: min(16384, x.count - 64)) }
        return f
    }

    public static func frequency(_ x: [Float], sampleRate: Double, guess: Double? = nil) -> Double? {
        frequency(x[...], sampleRate: sampleRate, guess: guess)
    }

    /// First index where |x| reaches `threshold`, or nil.
    public static func onset(_ x: [Float], threshold: Float = 1e-4, from start: Int = 0) -> Int? {
        guard start < x.count else { return nil }
        return x[start...].firstIndex { abs($0) >= threshold }
    }

    /// A sine of `frequency` Hz, `amplitude`, `count` samples.
    public static func sine(frequency: Double, sampleRate: Double, count: Int, amplitude: Float = 0.5, phase: Double = 0) -> [Float] {
        (0..<count).map { amplitude * Float(sin(phase + 2 * Double.pi * frequency * Double($0) / sampleRate)) }
    }

    /// Deterministic white noise in [−amplitude, amplitude] (xorshift; every test source takes a seed).
    public static func noise(count: Int, amplitude: Float = 0.5, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [Float] {
        var s = seed | 1
        return (0..<count).map { _ in
            s ^= s << 13; s ^= s >> 7; s ^= s << 17
            return amplitude * (Float(s >> 40) / Float(1 << 24) * 2 - 1)
        }
    }
}
