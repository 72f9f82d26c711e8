import DSP

/// Adding a part's chunk into the instrument's output while taking its peak, four frames at a
/// time (`BlockPeak`: a scalar max chain ran one frame per iteration). Render thread.
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
            peaks = BlockPeak.larger(BlockPeak.larger(peaks, BlockPeak.magnitude(left)), BlockPeak.magnitude(right))
            i &+= 4
        }
        var result = BlockPeak.largestLane(peaks)
        while i < frames {
            output.left[i] += part.left[i]
            output.right[i] += part.right[i]
            result = max(max(result, abs(part.left[i])), abs(part.right[i]))
            i &+= 1
        }
        return result
    }
}
