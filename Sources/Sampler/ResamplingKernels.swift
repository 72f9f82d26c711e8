/// The inner loops: read `count` output samples from guarded frames starting at a 32.32
/// fixed-point phase (integer part = frame index), stepping by `increment`. They never test for the
/// loop end: the caller sizes `count` so the integer part stays below `endFrame`, and the guard
/// frames cover the window. Wrapping arithmetic (`&+`, `truncatingIfNeeded`) keeps them free of
/// overflow checks, which cost ~14 instructions per sample under -O.
enum ResamplingKernels {
    /// The frames from the phase's on, one per output (the caller guarantees a step of exactly
    /// one frame at a whole phase), four at a time.
    @inline(__always)
    static func copy<Frame: StoredSample>(
        _ source: UnsafeRawPointer, _: Frame.Type, scale: Float, into output: UnsafeMutablePointer<Float>, count: Int, phase: UInt64
    ) {
        let first = Int(truncatingIfNeeded: phase &>> 32)
        var i = 0
        while i &+ 4 <= count {
            UnsafeMutableRawPointer(output + i).storeBytes(of: Frame.scaled(Frame.window(source, from: first &+ i), scale), as: SIMD4<Float>.self)
            i &+= 4
        }
        while i < count {
            // The window around the frame, within the guard frames the kernels read anyway.
            output[i] = Frame.scaled(Frame.window(source, from: first &+ i &- 1)[1], scale)
            i &+= 1
        }
    }

    /// 4-point Hermite via the weight table, on a plain form's frames as the waveform stores them.
    @inline(__always)
    static func hermite<Frame: StoredSample>(
        _ source: UnsafeRawPointer, _: Frame.Type, scale: Float, into output: UnsafeMutablePointer<Float>, count: Int,
        phase: UInt64, increment: UInt64, table: UnsafePointer<SIMD4<Float>>
    ) {
        var p = phase
        for i in 0..<count {
            output[i] = Frame.scaled(sum(product(source, Frame.self, p, table)), scale)
            p &+= increment
        }
    }

    /// The 4-frame window at phase `p` times its weight row.
    @inline(__always)
    private static func product<Frame: StoredSample>(
        _ raw: UnsafeRawPointer, _: Frame.Type, _ p: UInt64, _ table: UnsafePointer<SIMD4<Float>>
    ) -> SIMD4<Float> {
        let rowShift = UInt64(32 - InterpolationTables.hermiteRowBits)
        let rowMask = UInt64((1 << InterpolationTables.hermiteRowBits) - 1)
        let frame = Int(truncatingIfNeeded: p >> 32)
        let row = Int(truncatingIfNeeded: (p >> rowShift) & rowMask)
        return Frame.window(raw, from: frame &- 1) * table[row]
    }

    /// The live kernel: a 4-point cubic on a band-limited level, the cubic B-spline plus 1/36 of its
    /// second derivative (see `LevelLayout`; `SamplerLevels` stores the prefiltered coefficients). Its
    /// weights come from the fraction directly, so no table is read and no phase is quantised.
    ///
    /// Four output samples at a time, vectorised across them: their four windows are transposed
    /// into frame columns and each weight is a vector over the four outputs, so the sum needs no
    /// horizontal adds, and the fractions advance as one vector. A whole step in stored frames
    /// (the root key on level 0, an octave below it) keeps every output at the same fraction, so
    /// its weights are computed once (the same values, so the same output); a step of exactly one
    /// frame (the root key) also needs no transpose: the four outputs' windows are the frames
    /// shifted by one, so each column is one load. The last 0–3 samples take the one-at-a-time form.
    @inline(__always)
    static func cubicMOMS<Frame: StoredSample>(
        _ source: UnsafeRawPointer, _: Frame.Type, scale: Float, into output: UnsafeMutablePointer<Float>, count: Int,
        phase: UInt64, increment: UInt64
    ) {
        var group = FourPhases(phase: phase, increment: increment)
        var i = 0
        // Two loops, not one choosing its weights: the optimiser does not split such a loop (+0.9 G
        // instructions on a song, measured).
        if group.isWholeStep {
            let weights = momsWeights(group.fractions)
            if group.isOneFrame {
                while i &+ 4 <= count {
                    four(source, Frame.self, scale: scale, weights: weights, consecutive: true, group: &group, into: output + i)
                    i &+= 4
                }
            }
            while i &+ 4 <= count {
                four(source, Frame.self, scale: scale, weights: weights, consecutive: false, group: &group, into: output + i)
                i &+= 4
            }
        }
        while i &+ 4 <= count {
            four(source, Frame.self, scale: scale, weights: momsWeights(group.fractions), consecutive: false, group: &group, into: output + i)
            i &+= 4
        }
        var p = group.phase
        while i < count {
            output[i] = Frame.scaled(sum(window(source, Frame.self, p) * momsWeights(p)), scale)
            p &+= increment
            i &+= 1
        }
    }

    /// Both channels of a stereo level, the weights computed once for both.
    @inline(__always)
    static func cubicMOMSStereo<Frame: StoredSample>(
        _ left: UnsafeRawPointer, _ right: UnsafeRawPointer, _: Frame.Type, scales: (Float, Float),
        into outputLeft: UnsafeMutablePointer<Float>, _ outputRight: UnsafeMutablePointer<Float>, count: Int,
        phase: UInt64, increment: UInt64
    ) {
        var group = FourPhases(phase: phase, increment: increment)
        var i = 0
        if group.isWholeStep {
            let weights = momsWeights(group.fractions)
            if group.isOneFrame {
                while i &+ 4 <= count {
                    fourStereo(
                        left, right, Frame.self, scales: scales, weights: weights, consecutive: true, group: &group, into: outputLeft + i, outputRight + i)
                    i &+= 4
                }
            }
            while i &+ 4 <= count {
                fourStereo(
                    left, right, Frame.self, scales: scales, weights: weights, consecutive: false, group: &group, into: outputLeft + i, outputRight + i)
                i &+= 4
            }
        }
        while i &+ 4 <= count {
            fourStereo(
                left, right, Frame.self, scales: scales, weights: momsWeights(group.fractions), consecutive: false, group: &group,
                into: outputLeft + i, outputRight + i)
            i &+= 4
        }
        var p = group.phase
        while i < count {
            let weights = momsWeights(p)
            outputLeft[i] = Frame.scaled(sum(window(left, Frame.self, p) * weights), scales.0)
            outputRight[i] = Frame.scaled(sum(window(right, Frame.self, p) * weights), scales.1)
            p &+= increment
            i &+= 1
        }
    }

    /// Four outputs at `group`'s phases with `weights`; the group moves on. `consecutive` (a
    /// constant at each call): the step is one frame, so the columns load directly.
    @inline(__always)
    private static func four<Frame: StoredSample>(
        _ source: UnsafeRawPointer, _: Frame.Type, scale: Float, weights: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>),
        consecutive: Bool, group: inout FourPhases, into output: UnsafeMutablePointer<Float>
    ) {
        let columns = group.columns(source, Frame.self, consecutive: consecutive)
        UnsafeMutableRawPointer(output).storeBytes(of: Frame.scaled(dot(columns, weights), scale), as: SIMD4<Float>.self)
        group.advance()
    }

    /// The same for both channels of a stereo level.
    @inline(__always)
    private static func fourStereo<Frame: StoredSample>(
        _ left: UnsafeRawPointer, _ right: UnsafeRawPointer, _: Frame.Type, scales: (Float, Float),
        weights: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>), consecutive: Bool, group: inout FourPhases,
        into outputLeft: UnsafeMutablePointer<Float>, _ outputRight: UnsafeMutablePointer<Float>
    ) {
        let sumLeft = dot(group.columns(left, Frame.self, consecutive: consecutive), weights)
        let sumRight = dot(group.columns(right, Frame.self, consecutive: consecutive), weights)
        UnsafeMutableRawPointer(outputLeft).storeBytes(of: Frame.scaled(sumLeft, scales.0), as: SIMD4<Float>.self)
        UnsafeMutableRawPointer(outputRight).storeBytes(of: Frame.scaled(sumRight, scales.1), as: SIMD4<Float>.self)
        group.advance()
    }

    /// The phases of four consecutive output samples: the first in full, the fractions of all
    /// four as one vector (wrapping adds of the step's fraction carry nothing into the frames,
    /// which come from the full phase).
    private struct FourPhases {
        var phase: UInt64
        let increment: UInt64
        var fractions: SIMD4<UInt32>
        let fractionStep: SIMD4<UInt32>

        @inline(__always)
        init(phase: UInt64, increment: UInt64) {
            self.phase = phase
            self.increment = increment
            let low = UInt32(truncatingIfNeeded: phase), step = UInt32(truncatingIfNeeded: increment)
            fractions = SIMD4(low, low &+ step, low &+ step &* 2, low &+ step &* 3)
            fractionStep = SIMD4(repeating: step &* 4)
        }

        /// Column k: frame i + k − 1 of each of the four samples (frame i). Consecutive samples
        /// (a one-frame step) make each column four consecutive frames, loaded at once; otherwise
        /// each sample's window i − 1 … i + 2 is loaded and the four transposed.
        @inline(__always)
        func columns<Frame: StoredSample>(
            _ raw: UnsafeRawPointer, _: Frame.Type, consecutive: Bool
        ) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
            if consecutive {
                let first = Int(truncatingIfNeeded: phase &>> 32) &- 1
                return (Frame.window(raw, from: first), Frame.window(raw, from: first &+ 1),
                        Frame.window(raw, from: first &+ 2), Frame.window(raw, from: first &+ 3))
            }
            let p1 = phase &+ increment, p2 = p1 &+ increment, p3 = p2 &+ increment
            return transposed((window(raw, Frame.self, phase), window(raw, Frame.self, p1), window(raw, Frame.self, p2), window(raw, Frame.self, p3)))
        }

        /// Every output at the first one's fraction: the step has no fractional part.
        var isWholeStep: Bool { UInt32(truncatingIfNeeded: increment) == 0 }
        /// The step is exactly one frame.
        var isOneFrame: Bool { increment == 1 << 32 }

        @inline(__always)
        mutating func advance() {
            phase &+= increment &* 4
            fractions &+= fractionStep
        }
    }

    /// Frames i − 1 … i + 2 around the frame i of phase `p`.
    @inline(__always)
    private static func window<Frame: StoredSample>(_ frames: UnsafeRawPointer, _: Frame.Type, _ p: UInt64) -> SIMD4<Float> {
        Frame.window(frames, from: Int(truncatingIfNeeded: p &>> 32) &- 1)
    }

    /// Rows (one output's window each) to columns (one frame offset each, across the outputs).
    @inline(__always)
    private static func transposed(
        _ rows: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
    ) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let (a, b, c, d) = rows
        let ab = SIMD4(a.x, b.x, a.y, b.y), cd = SIMD4(c.x, d.x, c.y, d.y)
        let abHigh = SIMD4(a.z, b.z, a.w, b.w), cdHigh = SIMD4(c.z, d.z, c.w, d.w)
        return (SIMD4(lowHalf: ab.lowHalf, highHalf: cd.lowHalf), SIMD4(lowHalf: ab.highHalf, highHalf: cd.highHalf),
                SIMD4(lowHalf: abHigh.lowHalf, highHalf: cdHigh.lowHalf), SIMD4(lowHalf: abHigh.highHalf, highHalf: cdHigh.highHalf))
    }

    @inline(__always)
    private static func dot(
        _ columns: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>),
        _ weights: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
    ) -> SIMD4<Float> {
        (columns.0 * weights.0 + columns.1 * weights.1) + (columns.2 * weights.2 + columns.3 * weights.3)
    }

    /// The live kernel's weights for frames i − 1, i, i + 1, i + 2 at fraction t, each a vector over
    /// four outputs: the cubic B-spline's, ((1 − t)³, 3t³ − 6t² + 4, −3t³ + 3t² + 3t + 1, t³)/6,
    /// plus 1/36 of its second derivative's, (1 − t, 3t − 2, 1 − 3t, t), which sum to 0.
    @inline(__always)
    private static func momsWeights(_ fractions: SIMD4<UInt32>) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        // The top 31 bits as signed integers: one vector conversion.
        let t = SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: fractions &>> 1)) * 0x1p-31
        let t2 = t * t, u = 1 - t
        let w0 = (u * u + 1.0 / 6) * u * (1.0 / 6), w3 = (t2 + 1.0 / 6) * t * (1.0 / 6)
        let linear: SIMD4<Float> = t * (1.0 / 12) + (2.0 / 3 - 1.0 / 18)
        let w1 = (t * 0.5 - 1) * t2 + linear
        return (w0, w1, 1 - w0 - w1 - w3, w3)
    }

    /// The same weights for one output, as one vector (w0, w1, w2, w3): the last 0–3 samples.
    @inline(__always)
    private static func momsWeights(_ p: UInt64) -> SIMD4<Float> {
        let w = momsWeights(SIMD4(repeating: UInt32(truncatingIfNeeded: p)))
        return SIMD4(w.0[0], w.1[0], w.2[0], w.3[0])
    }

    /// Horizontal sum by halves: two adds (SIMD4.sum() compiles to a much longer sequence).
    @inline(__always)
    private static func sum(_ products: SIMD4<Float>) -> Float {
        let pair = products.lowHalf + products.highHalf
        return pair.x + pair.y
    }

    /// Band-limited windowed sinc on a level (see `ResamplingKernel`): per output sample, the
    /// row's weights are interpolated toward the next row's (one multiply-add per 4 taps) and
    /// multiplied with the window, 4 taps at a time.
    ///
    /// Four output samples at a time: each one's four partial sums are stored whole, then the
    /// four are summed across by one transpose. Summing each sample's lanes on the spot let the
    /// optimiser split every vector into halves (measured: 59–68 instructions per sample at 12
    /// taps, against 33 + 9 this way). The taps and rows are `ResamplingKernel`'s literals.
    @inline(__always)
    static func bandLimited<Frame: StoredSample>(
        _ source: UnsafeRawPointer, _: Frame.Type, scale: Float, into output: UnsafeMutablePointer<Float>, count: Int,
        phase: UInt64, increment: UInt64, kernel: ResamplingKernel
    ) {
        var sums = (SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>())
        withUnsafeMutableBytes(of: &sums) { bytes in
            let partial = bytes.baseAddress!.assumingMemoryBound(to: SIMD4<Float>.self)
            var p = phase, i = 0
            while i < count {
                let n = min(4, count &- i)
                for j in 0..<n {
                    partial[j] = dot(source, Frame.self, p, kernel.weights)
                    p &+= increment
                }
                store(Frame.scaled(across(partial), scale), n, output + i)
                i &+= n
            }
        }
    }

    /// Both channels of a stereo level: the blended weights are computed once per output sample
    /// and applied to the left and right windows.
    @inline(__always)
    static func bandLimitedStereo<Frame: StoredSample>(
        _ left: UnsafeRawPointer, _ right: UnsafeRawPointer, _: Frame.Type, scales: (Float, Float),
        into outputLeft: UnsafeMutablePointer<Float>, _ outputRight: UnsafeMutablePointer<Float>, count: Int,
        phase: UInt64, increment: UInt64, kernel: ResamplingKernel
    ) {
        var sums = (SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>(),
                    SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>())
        withUnsafeMutableBytes(of: &sums) { bytes in
            let partialLeft = bytes.baseAddress!.assumingMemoryBound(to: SIMD4<Float>.self), partialRight = partialLeft + 4
            var p = phase, i = 0
            while i < count {
                let n = min(4, count &- i)
                for j in 0..<n {
                    let (weights, blend) = row(p, kernel.weights)
                    let first = Int(truncatingIfNeeded: p &>> 32) &- ResamplingKernel.tapsBefore
                    var sumLeft = SIMD4<Float>(), sumRight = SIMD4<Float>()
                    for quad in 0..<ResamplingKernel.quads {
                        let weight = weights[2 &* quad] + blend * weights[2 &* quad &+ 1]
                        sumLeft += Frame.window(left, from: first &+ quad &* 4) * weight
                        sumRight += Frame.window(right, from: first &+ quad &* 4) * weight
                    }
                    partialLeft[j] = sumLeft
                    partialRight[j] = sumRight
                    p &+= increment
                }
                store(Frame.scaled(across(partialLeft), scales.0), n, outputLeft + i)
                store(Frame.scaled(across(partialRight), scales.1), n, outputRight + i)
                i &+= n
            }
        }
    }

    /// The row for phase `p` and the blend toward the next row.
    @inline(__always)
    private static func row(_ p: UInt64, _ weights: UnsafePointer<SIMD4<Float>>) -> (UnsafePointer<SIMD4<Float>>, SIMD4<Float>) {
        let phaseShift = UInt64(32 - ResamplingKernel.rowBits)
        let row = Int(truncatingIfNeeded: (p &>> phaseShift) & UInt64((1 << ResamplingKernel.rowBits) - 1))
        // Signed conversion: one instruction (the fraction bits fit in an Int64).
        let fraction = Float(Int64(truncatingIfNeeded: p & ((UInt64(1) << phaseShift) - 1))) * (Float(1) / Float(UInt64(1) << phaseShift))
        return (weights + row &* (2 &* ResamplingKernel.quads), SIMD4(repeating: fraction))
    }

    /// One sample's four partial sums (lanes not yet added).
    @inline(__always)
    private static func dot<Frame: StoredSample>(
        _ raw: UnsafeRawPointer, _: Frame.Type, _ p: UInt64, _ table: UnsafePointer<SIMD4<Float>>
    ) -> SIMD4<Float> {
        let (weights, blend) = row(p, table)
        let first = Int(truncatingIfNeeded: p &>> 32) &- ResamplingKernel.tapsBefore
        var sum = SIMD4<Float>()
        for quad in 0..<ResamplingKernel.quads {
            let weight = weights[2 &* quad] + blend * weights[2 &* quad &+ 1]
            sum += Frame.window(raw, from: first &+ quad &* 4) * weight
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

/// How a level's stored frames are read as Float: Float as they are; 16-bit points converted, the
/// kernel's output then times the level's scale (one multiply per output instead of one per tap).
/// Specialised at each call (the kernels are inlined), so no witness table is read on the render
/// thread.
protocol StoredSample {
    /// Frames `frame` … `frame` + 3.
    static func window(_ raw: UnsafeRawPointer, from frame: Int) -> SIMD4<Float>
    static func scaled(_ value: SIMD4<Float>, _ scale: Float) -> SIMD4<Float>
    static func scaled(_ value: Float, _ scale: Float) -> Float
}

extension Float: StoredSample {
    /// Indexed by frames: the ×4 folds into the load's address.
    @inline(__always)
    static func window(_ raw: UnsafeRawPointer, from frame: Int) -> SIMD4<Float> {
        UnsafeRawPointer(raw.assumingMemoryBound(to: Float.self) + frame).loadUnaligned(as: SIMD4<Float>.self)
    }

    @inline(__always) static func scaled(_ value: SIMD4<Float>, _ scale: Float) -> SIMD4<Float> { value }
    @inline(__always) static func scaled(_ value: Float, _ scale: Float) -> Float { value }
}

extension Int16: StoredSample {
    @inline(__always)
    static func window(_ raw: UnsafeRawPointer, from frame: Int) -> SIMD4<Float> {
        SIMD4<Float>(UnsafeRawPointer(raw.assumingMemoryBound(to: Int16.self) + frame).loadUnaligned(as: SIMD4<Int16>.self))
    }

    @inline(__always) static func scaled(_ value: SIMD4<Float>, _ scale: Float) -> SIMD4<Float> { value * scale }
    @inline(__always) static func scaled(_ value: Float, _ scale: Float) -> Float { value * scale }
}
