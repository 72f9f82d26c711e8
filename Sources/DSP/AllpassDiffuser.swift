/// Four Schroeder all-passes in series (w[n] = x[n] + g·w[n−M], y[n] = w[n−M] − g·w[n]): a flat
/// magnitude response that smears a click into a dense burst, so a reverb's first echoes do not
/// sound like a flutter. All four rings share one size and one write index. Allocate on the control
/// thread; `process` and `reset` are render-thread safe. A value type over owned storage (a class
/// held by the reverb would be retained per call): the owner calls `deallocate()` once.
struct AllpassDiffuser {
    let storage: UnsafeMutablePointer<Float>
    let ringSize: Int
    let mask: Int
    let lengths: SIMD4<Int>
    var writeIndex = 0

    /// `milliseconds`: the four stage delays; mutually prime lengths keep their echoes apart.
    init(sampleRate: Double, milliseconds: SIMD4<Double>) {
        var samples = SIMD4<Int>()
        for k in 0..<AllpassStages.count { samples[k] = max(1, Int((milliseconds[k] * sampleRate / 1000).rounded())) }
        lengths = samples
        var size = 1
        while size <= samples.max() { size <<= 1 }
        ringSize = size
        mask = size - 1
        storage = .allocate(capacity: AllpassStages.count * size)
        storage.initialize(repeating: 0, count: AllpassStages.count * size)
    }

    func deallocate() { storage.deallocate() }

    /// One sample through the four stages with coefficient `g` (|g| < 1).
    @inline(__always) @_noAllocation
    mutating func process(_ x: Float, coefficient g: Float) -> Float {
        var v = x
        let w = writeIndex
        for k in 0..<AllpassStages.count {
            let ring = storage + k &* ringSize
            let delayed = ring[(w &- lengths[k]) & mask]
            let u = v + g * delayed
            ring[w] = FlushDenormals.flush(u)
            v = delayed - g * u
        }
        writeIndex = (w &+ 1) & mask
        return v
    }

    @_noAllocation
    mutating func reset() {
        storage.update(repeating: 0, count: AllpassStages.count * ringSize)
        writeIndex = 0
    }
}

/// The diffuser's stage count, outside the class (a class's statics are initialised behind a lock).
enum AllpassStages {
    static let count = 4
}

/// Recirculating state decays geometrically into the subnormal range, where x86 arithmetic is
/// ~100× slower. Values below 1e-15 (−300 dB) are set to exactly 0. A compare and select, not the
/// add-and-subtract-a-bias trick: that one rounds to multiples of the bias's ulp, and a loop gain
/// near 1 then holds a one-ulp limit cycle forever instead of reaching 0.
enum FlushDenormals {
    static let threshold: Float = 1e-15

    @inline(__always)
    static func flush(_ x: Float) -> Float { abs(x) < threshold ? 0 : x }

    @inline(__always)
    static func flush(_ x: SIMD8<Float>) -> SIMD8<Float> {
        x.replacing(with: 0, where: x .< threshold .& x .> -threshold)
    }
}
