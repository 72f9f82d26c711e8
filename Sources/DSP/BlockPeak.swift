/// The largest |sample| of a block, four frames at a time. A scalar `max` chain is a
/// loop-carried dependency the optimiser may not reorder (NaN), so it runs one frame per
/// iteration; four running peaks have no such chain. A NaN sample leaves the peak as it was, as
/// `max(peak, x)` does. Render-thread safe.
public enum BlockPeak {
    /// max(`peak`, |samples[0 ..< frames]|).
    @inlinable
    @_noAllocation
    public static func of(_ samples: UnsafePointer<Float>, frames: Int, from peak: Float) -> Float {
        var peaks = SIMD4<Float>(repeating: peak)
        var i = 0
        while i &+ 4 <= frames {
            peaks = larger(peaks, magnitude(UnsafeRawPointer(samples + i).loadUnaligned(as: SIMD4<Float>.self)))
            i &+= 4
        }
        var result = largestLane(peaks)
        while i < frames {
            result = max(result, abs(samples[i]))
            i &+= 1
        }
        return result
    }

    /// The largest |sample| of both channels of `block`.
    @inlinable
    @_noAllocation
    public static func of(_ block: StereoBlock) -> Float {
        of(block.right, frames: block.frames, from: of(block.left, frames: block.frames, from: 0))
    }

    /// The largest |sample| of both channels of `block`, +∞ when one is NaN (which `of` drops):
    /// a block's peak as a report shows it.
    @inlinable
    @_noAllocation
    public static func showingNaN(_ block: StereoBlock) -> Float {
        var peaks = SIMD4<Float>(), i = 0
        while i &+ 4 <= block.frames {
            for channel in 0..<2 {
                let x = magnitude(UnsafeRawPointer((channel == 0 ? block.left : block.right) + i).loadUnaligned(as: SIMD4<Float>.self))
                peaks = larger(peaks, x.replacing(with: .infinity, where: x .!= x))
            }
            i &+= 4
        }
        var result = largestLane(peaks)
        while i < block.frames {
            for channel in 0..<2 {
                let x = abs((channel == 0 ? block.left : block.right)[i])
                if !(x <= result) { result = x.isNaN ? .infinity : x }
            }
            i &+= 1
        }
        return result
    }

    /// The larger of each lane; `peaks` where `x` is NaN (the stdlib's `pointwiseMax` stays an
    /// outlined generic call).
    @inlinable
    @inline(__always)
    public static func larger(_ peaks: SIMD4<Float>, _ x: SIMD4<Float>) -> SIMD4<Float> {
        peaks.replacing(with: x, where: peaks .< x)
    }

    /// |x| per lane: the sign bits cleared (SIMD4 has no `abs`).
    @inlinable
    @inline(__always)
    public static func magnitude(_ x: SIMD4<Float>) -> SIMD4<Float> {
        unsafeBitCast(unsafeBitCast(x, to: SIMD4<UInt32>.self) & 0x7FFF_FFFF, to: SIMD4<Float>.self)
    }

    @inlinable
    @inline(__always)
    public static func largestLane(_ peaks: SIMD4<Float>) -> Float {
        max(max(peaks[0], peaks[1]), max(peaks[2], peaks[3]))
    }
}
