import DSP

/// Adding a part's chunk into the instrument's output while taking its peak. Four frames at a
/// time: a scalar `max` chain is a loop-carried dependency the optimiser may not reorder (NaN),
/// so it stayed one frame per iteration; a vector of four running peaks has no such chain.
/// `larger(peak, x)` keeps `peak` when `x` is NaN, as `max(peak, x)` does. Render thread.
enum PartMix {
    /// `output` += `part` over `part.frames`; returns the largest |sample| of `part` and `peak`.
    @_noAllocation
    static func add(_ part: StereoBlock, into output: StereoBlock, peak: Float) -> Float {
        let frames = part.frames
        var peaks = SIMD4<Float>(repeating: peak)
        var i = 0
        while i &+ 4 <= frames {
            let left = UnsafeRawPointer(part.left + i).loadUnaligned(as: SIMD4<Float>.self)
            let right = UnsafeRawPointer(part.right + i).loadUnaligned(as: SIMD4<Float>.self)
            let outLeft = UnsafeMutableRawPointer(output.left + i), outRight = UnsafeMutableRawPointer(output.right + i)
            outLeft.storeBytes(of: outLeft.loadUnaligned(as: SIMD4<Float>.self) + left, as: SIMD4<Float>.self)
            outRight.storeBytes(of: outRight.loadUnaligned(as: SIMD4<Float>.self) + right, as: SIMD4<Float>.self)
            peaks = larger(larger(peaks, magnitude(left)), magnitude(right))
            i &+= 4
        }
        var result = max(max(peaks[0], peaks[1]), max(peaks[2], peaks[3]))
        while i < frames {
            output.left[i] += part.left[i]
            output.right[i] += part.right[i]
            result = max(max(result, abs(part.left[i])), abs(part.right[i]))
            i &+= 1
        }
        return result
    }

    /// The larger of each lane, `peaks` where `x` is NaN (the stdlib's `pointwiseMax` is an
    /// outlined generic call here).
    @inline(__always)
    private static func larger(_ peaks: SIMD4<Float>, _ x: SIMD4<Float>) -> SIMD4<Float> {
        peaks.replacing(with: x, where: peaks .< x)
    }

    /// |x| per lane: the sign bits cleared (SIMD4 has no `abs`).
    @inline(__always)
    private static func magnitude(_ x: SIMD4<Float>) -> SIMD4<Float> {
        unsafeBitCast(unsafeBitCast(x, to: SIMD4<UInt32>.self) & 0x7FFF_FFFF, to: SIMD4<Float>.self)
    }
}
