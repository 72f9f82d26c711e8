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
    ///
    /// Four output samples at a time: each one's four partial sums are stored whole, then the
    /// four are summed across by one transpose. Summing each sample's lanes on the spot let the
    /// optimiser split every vector into halves (measured: 59–68 instructions per sample at 12
    /// taps, against 33 + 9 this way). `Length` fixes the taps and rows at compile time.
    @inline(__always)
    static func bandLimited<Length: KernelLength>(
        _ source: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, count: Int,
        phase: UInt64, increment: UInt64, kernel: ResamplingKernel, length: Length.Type
    ) {
        var sums = (SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>())
        withUnsafeMutableBytes(of: &sums) { bytes in
            let partial = bytes.baseAddress!.assumingMemoryBound(to: SIMD4<Float>.self)
            let raw = UnsafeRawPointer(source - kernel.tapsBefore)
            var p = phase, i = 0
            while i < count {
                let n = min(4, count &- i)
                for j in 0..<n {
                    partial[j] = dot(raw, p, kernel.weights, length)
                    p &+= increment
                }
                store(across(partial), n, output + i)
                i &+= n
            }
        }
    }

    /// Both channels of a stereo level: the blended weights are computed once per output sample
    /// and applied to the left and right windows.
    @inline(__always)
    static func bandLimitedStereo<Length: KernelLength>(
        _ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>,
        into outputLeft: UnsafeMutablePointer<Float>, _ outputRight: UnsafeMutablePointer<Float>, count: Int,
        phase: UInt64, increment: UInt64, kernel: ResamplingKernel, length: Length.Type
    ) {
        var sums = (SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>(),
                    SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>())
        withUnsafeMutableBytes(of: &sums) { bytes in
            let partialLeft = bytes.baseAddress!.assumingMemoryBound(to: SIMD4<Float>.self), partialRight = partialLeft + 4
            let rawLeft = UnsafeRawPointer(left - kernel.tapsBefore), rawRight = UnsafeRawPointer(right - kernel.tapsBefore)
            var p = phase, i = 0
            while i < count {
                let n = min(4, count &- i)
                for j in 0..<n {
                    let (weights, blend) = row(p, kernel.weights, length)
                    let offset = Int(truncatingIfNeeded: p &>> 32) &* 4
                    var sumLeft = SIMD4<Float>(), sumRight = SIMD4<Float>()
                    for quad in 0..<Length.quads {
                        let weight = weights[2 &* quad] + blend * weights[2 &* quad &+ 1]
                        sumLeft += rawLeft.loadUnaligned(fromByteOffset: offset &+ quad &* 16, as: SIMD4<Float>.self) * weight
                        sumRight += rawRight.loadUnaligned(fromByteOffset: offset &+ quad &* 16, as: SIMD4<Float>.self) * weight
                    }
                    partialLeft[j] = sumLeft
                    partialRight[j] = sumRight
                    p &+= increment
                }
                store(across(partialLeft), n, outputLeft + i)
                store(across(partialRight), n, outputRight + i)
                i &+= n
            }
        }
    }

    /// The row for phase `p` and the blend toward the next row.
    @inline(__always)
    private static func row<Length: KernelLength>(
        _ p: UInt64, _ weights: UnsafePointer<SIMD4<Float>>, _ length: Length.Type
    ) -> (UnsafePointer<SIMD4<Float>>, SIMD4<Float>) {
        let phaseShift = UInt64(32 - Length.rowBits)
        let row = Int(truncatingIfNeeded: (p &>> phaseShift) & UInt64((1 << Length.rowBits) - 1))
        // Signed conversion: one instruction (the fraction bits fit in an Int64).
        let fraction = Float(Int64(truncatingIfNeeded: p & ((UInt64(1) << phaseShift) - 1))) * (Float(1) / Float(UInt64(1) << phaseShift))
        return (weights + row &* (2 &* Length.quads), SIMD4(repeating: fraction))
    }

    /// One sample's four partial sums (lanes not yet added).
    @inline(__always)
    private static func dot<Length: KernelLength>(
        _ raw: UnsafeRawPointer, _ p: UInt64, _ table: UnsafePointer<SIMD4<Float>>, _ length: Length.Type
    ) -> SIMD4<Float> {
        let (weights, blend) = row(p, table, length)
        let window = raw + Int(truncatingIfNeeded: p &>> 32) &* 4
        var sum = SIMD4<Float>()
        for quad in 0..<Length.quads {
            let weight = weights[2 &* quad] + blend * weights[2 &* quad &+ 1]
            sum += window.loadUnaligned(fromByteOffset: quad &* 16, as: SIMD4<Float>.self) * weight
        }
        return sum
    }

    /// Lane sums of four vectors, as one vector (a transpose and three adds).
    @inline(__always)
    private static func across(_ partial: UnsafeMutablePointer<SIMD4<Float>>) -> SIMD4<Float> {
        let s0 = partial[0], s1 = partial[1], s2 = partial[2], s3 = partial[3]
        let a = SIMD4(lowHalf: s0.lowHalf, highHalf: s1.lowHalf) + SIMD4(lowHalf: s0.highHalf, highHalf: s1.highHalf)
        let b = SIMD4(lowHalf: s2.lowHalf, highHalf: s3.lowHalf) + SIMD4(lowHalf: s2.highHalf, highHalf: s3.highHalf)
        return SIMD4(a[0], a[2], b[0], b[2]) + SIMD4(a[1], a[3], b[1], b[3])
    }

    /// The first `n` (1…4) lanes of `sums` to `output`.
    @inline(__always)
    private static func store(_ sums: SIMD4<Float>, _ n: Int, _ output: UnsafeMutablePointer<Float>) {
        if n == 4 {
            UnsafeMutableRawPointer(output).storeBytes(of: sums, as: SIMD4<Float>.self)
        } else {
            for j in 0..<n { output[j] = sums[j] }
        }
    }
}

/// The kernel's length and phase count as a type, so each gets its own unrolled loop.
protocol KernelLength {
    /// Taps / 4.
    static var quads: Int { get }
    static var rowBits: Int { get }
}

/// 12 taps, 256 rows (`ResamplingKernel.live`).
enum LiveKernelLength: KernelLength {
    static var quads: Int { 3 }
    static var rowBits: Int { 8 }
}

/// 16 taps, 512 rows (`ResamplingKernel.offline`).
enum OfflineKernelLength: KernelLength {
    static var quads: Int { 4 }
    static var rowBits: Int { 9 }
}
