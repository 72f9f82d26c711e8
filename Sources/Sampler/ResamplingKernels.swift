/// The inner loops: read `count` output samples from guarded frames starting at a 32.32
/// fixed-point phase (integer part = frame index), stepping by `increment`. They never test for the
/// loop end: the caller sizes `count` so the integer part stays below `endFrame`, and the guard
/// frames cover the window. Wrapping arithmetic (`&+`, `truncatingIfNeeded`) keeps them free of
/// overflow checks, which cost ~14 instructions per sample under -O.
enum ResamplingKernels {
    /// 4-point Hermite via the weight table.
    @inline(__always)
    static func hermite(
        _ source: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, count: Int,
        phase: UInt64, increment: UInt64, table: UnsafePointer<SIMD4<Float>>
    ) {
        let raw = UnsafeRawPointer(source)
        var p = phase
        for i in 0..<count {
            // Horizontal sum by halves: two adds (SIMD4.sum() compiles to a much longer sequence).
            let products = product(raw, p, table)
            let pair = products.lowHalf + products.highHalf
            output[i] = pair.x + pair.y
            p &+= increment
        }
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

    /// Band-limited windowed sinc on a level (see `ResamplingKernel`): per output sample, the
    /// row's weights are interpolated toward the next row's (one multiply-add per 4 taps) and
    /// multiplied with the window, 4 taps at a time.
    @inline(__always)
    static func bandLimited(
        _ source: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, count: Int,
        phase: UInt64, increment: UInt64, kernel: ResamplingKernel
    ) {
        let rows = Rows(kernel)
        let raw = UnsafeRawPointer(source - kernel.tapsBefore)
        var p = phase
        for i in 0..<count {
            let (weights, blend) = rows.at(p)
            let window = raw + Int(truncatingIfNeeded: p >> 32) &* 4
            var sum = SIMD4<Float>()
            for quad in 0..<kernel.quads {
                let weight = weights[2 &* quad] + blend * weights[2 &* quad &+ 1]
                sum += window.loadUnaligned(fromByteOffset: quad &* 16, as: SIMD4<Float>.self) * weight
            }
            let pair = sum.lowHalf + sum.highHalf
            output[i] = pair.x + pair.y
            p &+= increment
        }
    }

    /// Both channels of a stereo level: the blended weights are computed once per output sample
    /// and applied to the left and right windows.
    @inline(__always)
    static func bandLimitedStereo(
        _ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>,
        into outputLeft: UnsafeMutablePointer<Float>, _ outputRight: UnsafeMutablePointer<Float>, count: Int,
        phase: UInt64, increment: UInt64, kernel: ResamplingKernel
    ) {
        let rows = Rows(kernel)
        let rawLeft = UnsafeRawPointer(left - kernel.tapsBefore), rawRight = UnsafeRawPointer(right - kernel.tapsBefore)
        var p = phase
        for i in 0..<count {
            let (weights, blend) = rows.at(p)
            let offset = Int(truncatingIfNeeded: p >> 32) &* 4
            var sumLeft = SIMD4<Float>(), sumRight = SIMD4<Float>()
            for quad in 0..<kernel.quads {
                let weight = weights[2 &* quad] + blend * weights[2 &* quad &+ 1]
                sumLeft += rawLeft.loadUnaligned(fromByteOffset: offset &+ quad &* 16, as: SIMD4<Float>.self) * weight
                sumRight += rawRight.loadUnaligned(fromByteOffset: offset &+ quad &* 16, as: SIMD4<Float>.self) * weight
            }
            let pairLeft = sumLeft.lowHalf + sumLeft.highHalf, pairRight = sumRight.lowHalf + sumRight.highHalf
            outputLeft[i] = pairLeft.x + pairLeft.y
            outputRight[i] = pairRight.x + pairRight.y
            p &+= increment
        }
    }

    /// Row lookup from a 32.32 phase: the row's (weight, slope) pairs and the blend toward the next.
    private struct Rows {
        let weights: UnsafePointer<SIMD4<Float>>
        let stride: Int
        let phaseShift: UInt64
        let rowMask: UInt64
        let blendMask: UInt64
        let blendScale: Float

        @inline(__always)
        init(_ kernel: ResamplingKernel) {
            weights = kernel.weights
            stride = kernel.quads &* 2
            phaseShift = UInt64(32 - kernel.rowBits)
            rowMask = UInt64((1 << kernel.rowBits) - 1)
            blendMask = (UInt64(1) << phaseShift) - 1
            blendScale = Float(1) / Float(UInt64(1) << phaseShift)
        }

        @inline(__always)
        func at(_ p: UInt64) -> (UnsafePointer<SIMD4<Float>>, SIMD4<Float>) {
            let row = Int(truncatingIfNeeded: (p >> phaseShift) & rowMask)
            // Signed conversion: one instruction (the fraction bits fit in an Int64).
            let blend = SIMD4<Float>(repeating: Float(Int64(truncatingIfNeeded: p & blendMask)) * blendScale)
            return (weights + row &* stride, blend)
        }
    }
}
