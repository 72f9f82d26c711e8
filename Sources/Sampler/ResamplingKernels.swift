/// The inner loops: read `count` output samples from guarded frames starting at a 32.32
/// fixed-point phase (integer part = frame index), stepping by `increment`. They never test for the
/// loop end: the caller sizes `count` so the integer part stays below `endFrame`, and the guard
/// frames cover the window. Wrapping arithmetic (`&+`, `truncatingIfNeeded`) keeps them free of
/// overflow checks, which cost ~14 instructions per sample under -O.
enum ResamplingKernels {
    /// 4-point Hermite via the weight table; returns the phase after the last sample.
    @inline(__always)
    static func hermite(
        _ source: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, count: Int,
        phase: UInt64, increment: UInt64, table: UnsafePointer<SIMD4<Float>>
    ) -> UInt64 {
        let raw = UnsafeRawPointer(source)
        var p = phase
        for i in 0..<count {
            // Horizontal sum by halves: two adds (SIMD4.sum() compiles to a much longer sequence).
            let products = product(raw, p, table)
            let pair = products.lowHalf + products.highHalf
            output[i] = pair.x + pair.y
            p &+= increment
        }
        return p
    }

    /// The 4-frame window at phase `p` times its weight row.
    @inline(__always)
    private static func product(_ raw: UnsafeRawPointer, _ p: UInt64, _ table: UnsafePointer<SIMD4<Float>>) -> SIMD4<Float> {
        let rowShift = UInt64(32 - InterpolationTables.hermiteRowBits)
        let rowMask = UInt64((1 << InterpolationTables.hermiteRowBits) - 1)
        let frame = Int(truncatingIfNeeded: p >> 32)
        let row = Int(truncatingIfNeeded: (p >> rowShift) & rowMask)
        return raw.loadUnaligned(fromByteOffset: (frame &- 1) &* 4, as: SIMD4<Float>.self) * table[row]
    }

    /// 32-tap windowed sinc, weights linearly interpolated between table phases.
    static func sinc(
        _ source: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, count: Int,
        phase: UInt64, increment: UInt64, table: UnsafePointer<Float>
    ) -> UInt64 {
        let taps = InterpolationTables.sincTaps
        let phaseShift = UInt64(32 - InterpolationTables.sincPhaseBits)
        let phaseMask = UInt64((1 << InterpolationTables.sincPhaseBits) - 1)
        let blendScale = Float(1) / Float(1 << phaseShift)
        var p = phase
        for i in 0..<count {
            let frame = Int(truncatingIfNeeded: p >> 32)
            let row = Int(truncatingIfNeeded: (p >> phaseShift) & phaseMask)
            let blend = Float(p & ((1 << phaseShift) - 1)) * blendScale
            let first = table + row * taps
            let second = first + taps
            let window = source + (frame - InterpolationTables.sincTapsBefore)
            var sum: Float = 0
            for tap in 0..<taps {
                let weight = first[tap] + blend * (second[tap] - first[tap])
                sum += window[tap] * weight
            }
            output[i] = sum
            p &+= increment
        }
        return p
    }
}
