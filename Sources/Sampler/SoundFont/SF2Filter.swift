import DSP

/// The SoundFont voice filter: FluidSynth's RBJ-cookbook low-pass (a 2-pole biquad with its
/// Q, whose passband gain the voice applies apart), run four frames at a time. The biquad's
/// recursion, unrolled over four frames, becomes a linear map of the state and the four inputs
/// (`design` precomputes it), so each group of four outputs is a few SIMD multiply-adds with no
/// per-frame dependency chain: several times cheaper than the frame-by-frame recursion, which was
/// the largest cost of a SoundFont voice. Transposed direct form II state, Double precision
/// (stable down to FluidSynth's lowest cutoff, 20 Hz). Mono: SoundFont samples are. Render-thread
/// safe value type.
struct SF2Filter {
    /// y[0…3] = stateToOutput.0 · s1 + stateToOutput.1 · s2 + Σ inputToOutput.j · x[j]
    private var stateToOutput = (SIMD4<Double>(), SIMD4<Double>())
    private var inputToOutput = (SIMD4<Double>(), SIMD4<Double>(), SIMD4<Double>(), SIMD4<Double>())
    /// The state after four frames: s1' = Σ …, s2' = Σ … over (s1, s2, x0…x3).
    private var nextS1 = (0.0, 0.0, SIMD4<Double>())
    private var nextS2 = (0.0, 0.0, SIMD4<Double>())
    /// The plain coefficients, for a remainder of fewer than four frames.
    private var b = (0.0, 0.0, 0.0), a = (0.0, 0.0)
    private var s1 = 0.0, s2 = 0.0

    mutating func reset() {
        s1 = 0
        s2 = 0
    }

    /// RBJ low-pass at `cutoffHz` with linear Q `q` (unity DC gain).
    mutating func design(cutoffHz: Double, q: Double, sampleRate: Double) {
        let f = min(max(cutoffHz, 1), sampleRate * 0.49)
        let omega = 2 * Double.pi * f / sampleRate
        let sine = RealTimeMath.sin(omega), cosine = RealTimeMath.cos(omega)
        let alpha = sine / (2 * q)
        let a0 = 1 / (1 + alpha)
        let b1 = (1 - cosine) * a0
        b = (b1 / 2, b1, b1 / 2)
        a = (-2 * cosine * a0, (1 - alpha) * a0)
        // Responses of four frames to each state and input alone.
        func run(s1 start1: Double, s2 start2: Double, impulseAt: Int) -> (y: SIMD4<Double>, s1: Double, s2: Double) {
            var s1 = start1, s2 = start2, y = SIMD4<Double>()
            for n in 0..<4 {
                let x = n == impulseAt ? 1.0 : 0.0
                let out = b.0 * x + s1
                s1 = b.1 * x - a.0 * out + s2
                s2 = b.2 * x - a.1 * out
                y[n] = out
            }
            return (y, s1, s2)
        }
        let fromS1 = run(s1: 1, s2: 0, impulseAt: -1), fromS2 = run(s1: 0, s2: 1, impulseAt: -1)
        let x0 = run(s1: 0, s2: 0, impulseAt: 0), x1 = run(s1: 0, s2: 0, impulseAt: 1)
        let x2 = run(s1: 0, s2: 0, impulseAt: 2), x3 = run(s1: 0, s2: 0, impulseAt: 3)
        stateToOutput = (fromS1.y, fromS2.y)
        inputToOutput = (x0.y, x1.y, x2.y, x3.y)
        nextS1 = (fromS1.s1, fromS2.s1, SIMD4(x0.s1, x1.s1, x2.s1, x3.s1))
        nextS2 = (fromS1.s2, fromS2.s2, SIMD4(x0.s2, x1.s2, x2.s2, x3.s2))
    }

    /// Filters `count` samples in place.
    mutating func process(_ samples: UnsafeMutablePointer<Float>, count: Int) {
        var s1 = s1, s2 = s2
        let (m1, m2) = stateToOutput
        let (k0, k1, k2, k3) = inputToOutput
        let (p1, p2, pX) = nextS1
        let (q1, q2, qX) = nextS2
        var i = 0
        while i + 4 <= count {
            let x = SIMD4<Double>(Double(samples[i]), Double(samples[i + 1]), Double(samples[i + 2]), Double(samples[i + 3]))
            var y = m1 * s1 + m2 * s2
            y += k0 * x[0]
            y += k1 * x[1]
            y += k2 * x[2]
            y += k3 * x[3]
            let n1 = p1 * s1 + p2 * s2 + (pX * x).sum()
            let n2 = q1 * s1 + q2 * s2 + (qX * x).sum()
            s1 = n1
            s2 = n2
            samples[i] = Float(y[0])
            samples[i + 1] = Float(y[1])
            samples[i + 2] = Float(y[2])
            samples[i + 3] = Float(y[3])
            i += 4
        }
        while i < count {
            let x = Double(samples[i])
            let y = b.0 * x + s1
            s1 = b.1 * x - a.0 * y + s2
            s2 = b.2 * x - a.1 * y
            samples[i] = Float(y)
            i += 1
        }
        // Flush denormals a decaying state would leave.
        if abs(s1) < 1e-30 { s1 = 0 }
        if abs(s2) < 1e-30 { s2 = 0 }
        self.s1 = s1
        self.s2 = s2
    }
}
