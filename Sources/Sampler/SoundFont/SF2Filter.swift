import DSP

/// The SoundFont voice filter: FluidSynth's RBJ-cookbook low-pass (a 2-pole biquad with its
/// Q, whose passband gain the voice applies apart), run four frames at a time. The biquad's
/// recursion, unrolled over four frames, becomes a linear map of the state and the four inputs
/// (`design` precomputes it), so each group of four outputs is a few SIMD multiply-adds with no
/// per-frame dependency chain: several times cheaper than the frame-by-frame recursion, which was
/// the largest cost of a SoundFont voice. The state (transposed direct form II) is carried in
/// Double precision, stable down to FluidSynth's lowest cutoff; the four outputs, which are Float
/// anyway, are formed in Float from it (one SIMD4 lane per frame instead of two Double halves).
/// Mono: SoundFont samples are. Render-thread safe value type.
struct SF2Filter {
    /// y[0…3] = stateToOutput.0 · s1 + stateToOutput.1 · s2 + Σ inputToOutput.j · x[j]
    private var stateToOutput = (SIMD4<Float>(), SIMD4<Float>())
    private var inputToOutput = (SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>())
    /// The state after four frames as two rows, s1' = Σ toS1 · ((s1, s2), (x0, x1), (x2, x3)) and
    /// s2' likewise: six products and one pairwise sum, the previous state entering last (the
    /// shortest dependency chain from one group of frames to the next).
    private var toS1 = (SIMD2<Double>(), SIMD2<Double>(), SIMD2<Double>())
    private var toS2 = (SIMD2<Double>(), SIMD2<Double>(), SIMD2<Double>())
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
        let s1Response = run(s1: 1, s2: 0, impulseAt: -1), s2Response = run(s1: 0, s2: 1, impulseAt: -1)
        let x0 = run(s1: 0, s2: 0, impulseAt: 0), x1 = run(s1: 0, s2: 0, impulseAt: 1)
        let x2 = run(s1: 0, s2: 0, impulseAt: 2), x3 = run(s1: 0, s2: 0, impulseAt: 3)
        stateToOutput = (SIMD4<Float>(s1Response.y), SIMD4<Float>(s2Response.y))
        inputToOutput = (SIMD4<Float>(x0.y), SIMD4<Float>(x1.y), SIMD4<Float>(x2.y), SIMD4<Float>(x3.y))
        toS1 = (SIMD2(s1Response.s1, s2Response.s1), SIMD2(x0.s1, x1.s1), SIMD2(x2.s1, x3.s1))
        toS2 = (SIMD2(s1Response.s2, s2Response.s2), SIMD2(x0.s2, x1.s2), SIMD2(x2.s2, x3.s2))
    }

    /// Filters `count` samples in place.
    mutating func process(_ samples: UnsafeMutablePointer<Float>, count: Int) {
        let (m1, m2) = stateToOutput
        let (k0, k1, k2, k3) = inputToOutput
        let (row1, row2) = (toS1, toS2)
        var state = SIMD2(s1, s2)
        var i = 0
        while i &+ 4 <= count {
            let x = UnsafeRawPointer(samples + i).loadUnaligned(as: SIMD4<Float>.self)
            let narrow = SIMD2<Float>(state)
            var y: SIMD4<Float> = m1 * narrow[0] + m2 * narrow[1]
            y += k0 * x[0] + k1 * x[1]
            y += k2 * x[2] + k3 * x[3]
            let low = SIMD2<Double>(x.lowHalf), high = SIMD2<Double>(x.highHalf)
            let r1: SIMD2<Double> = (row1.1 * low + row1.2 * high) + row1.0 * state
            let r2: SIMD2<Double> = (row2.1 * low + row2.2 * high) + row2.0 * state
            state = SIMD2(r1.x, r2.x) + SIMD2(r1.y, r2.y)
            UnsafeMutableRawPointer(samples + i).storeBytes(of: y, as: SIMD4<Float>.self)
            i &+= 4
        }
        var s1 = state[0], s2 = state[1]
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
