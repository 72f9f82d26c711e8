import Glibc

/// Second-order IIR section (RBJ cookbook), used to colour noise. Offline use only.
struct Biquad {
    private var b0 = 1.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0
    private var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0

    static func highPass(cutoffHz: Double, q: Double, sampleRate: Double) -> Biquad {
        var filter = Biquad()
        let w = 2 * Double.pi * cutoffHz / sampleRate
        let alpha = sin(w) / (2 * q)
        let a0 = 1 + alpha
        filter.b0 = (1 + cos(w)) / 2 / a0
        filter.b1 = -(1 + cos(w)) / a0
        filter.b2 = filter.b0
        filter.a1 = -2 * cos(w) / a0
        filter.a2 = (1 - alpha) / a0
        return filter
    }

    static func bandPass(centerHz: Double, q: Double, sampleRate: Double) -> Biquad {
        var filter = Biquad()
        let w = 2 * Double.pi * centerHz / sampleRate
        let alpha = sin(w) / (2 * q)
        let a0 = 1 + alpha
        filter.b0 = alpha / a0
        filter.b1 = 0
        filter.b2 = -alpha / a0
        filter.a1 = -2 * cos(w) / a0
        filter.a2 = (1 - alpha) / a0
        return filter
    }

    mutating func process(_ x: Double) -> Double {
        let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2 = x1; x1 = x; y2 = y1; y1 = y
        return y
    }
}
