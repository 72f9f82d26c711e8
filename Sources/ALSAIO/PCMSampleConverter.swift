/// Converts between our planar Float stereo and ALSA's interleaved device formats.
/// Render-thread safe: pointer loops only, no allocation. Any thread.
///
/// Playback to a mono device mixes (L+R)/2; to more than two channels it writes L and R
/// to the first two and silence to the rest. Capture from a mono device copies it to both
/// sides; from more than two channels it keeps the first two.
public enum PCMSampleConverter {
    /// Full scale of the integer formats. S32 uses 2^31 − 128 so that +1.0 survives the
    /// Float → Int32 conversion without overflowing (Float has 24 bits of mantissa).
    static let signed16Scale: Float = 32_767
    static let signed32Scale: Float = 2_147_483_520

    /// Clamps to [−1, 1] and maps NaN to 0, so no input can trap the integer conversions.
    @inline(__always)
    static func sanitized(_ sample: Float) -> Float {
        if sample > 1 { return 1 }
        if sample < -1 { return -1 }
        return sample == sample ? sample : 0
    }

    /// Writes `frames` frames of `left`/`right` into `destination` as interleaved `format`
    /// with `channels` channels. `destination` must hold `frames × channels × bytesPerSample` bytes.
    @_noAllocation
    public static func interleave(
        left: UnsafePointer<Float>, right: UnsafePointer<Float>, frames: Int,
        into destination: UnsafeMutableRawPointer, channels: Int, format: PCMSampleFormat
    ) {
        switch format {
        case .float32LE:
            let out = destination.assumingMemoryBound(to: Float.self)
            interleave(left: left, right: right, frames: frames, channels: channels, into: out) { $0 }
        case .signed32LE:
            let out = destination.assumingMemoryBound(to: Int32.self)
            interleave(left: left, right: right, frames: frames, channels: channels, into: out) {
                Int32(truncatingIfNeeded: RenderThreadCalls.roundToInt(sanitized($0) * signed32Scale))
            }
        case .signed16LE:
            let out = destination.assumingMemoryBound(to: Int16.self)
            interleave(left: left, right: right, frames: frames, channels: channels, into: out) {
                Int16(truncatingIfNeeded: RenderThreadCalls.roundToInt(sanitized($0) * signed16Scale))
            }
        }
    }

    /// Reads `frames` interleaved frames of `format` with `channels` channels from `source`
    /// into planar `left`/`right`.
    @_noAllocation
    public static func deinterleave(
        from source: UnsafeRawPointer, frames: Int, channels: Int, format: PCMSampleFormat,
        left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>
    ) {
        switch format {
        case .float32LE:
            let input = source.assumingMemoryBound(to: Float.self)
            deinterleave(input, frames: frames, channels: channels, left: left, right: right) { $0 }
        case .signed32LE:
            let input = source.assumingMemoryBound(to: Int32.self)
            deinterleave(input, frames: frames, channels: channels, left: left, right: right) {
                Float($0) / signed32Scale
            }
        case .signed16LE:
            let input = source.assumingMemoryBound(to: Int16.self)
            deinterleave(input, frames: frames, channels: channels, left: left, right: right) {
                Float($0) / signed16Scale
            }
        }
    }

    @inline(__always)
    private static func interleave<Sample>(
        left: UnsafePointer<Float>, right: UnsafePointer<Float>, frames: Int, channels: Int,
        into out: UnsafeMutablePointer<Sample>, convert: (Float) -> Sample
    ) {
        if channels == 1 {
            for frame in 0..<frames { out[frame] = convert((left[frame] + right[frame]) * 0.5) }
            return
        }
        let silence = convert(0)
        for frame in 0..<frames {
            let base = frame &* channels
            out[base] = convert(left[frame])
            out[base &+ 1] = convert(right[frame])
            var extra = 2
            while extra < channels {
                out[base &+ extra] = silence
                extra &+= 1
            }
        }
    }

    @inline(__always)
    private static func deinterleave<Sample>(
        _ input: UnsafePointer<Sample>, frames: Int, channels: Int,
        left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, convert: (Sample) -> Float
    ) {
        if channels == 1 {
            for frame in 0..<frames {
                let value = convert(input[frame])
                left[frame] = value
                right[frame] = value
            }
            return
        }
        for frame in 0..<frames {
            let base = frame &* channels
            left[frame] = convert(input[base])
            right[frame] = convert(input[base &+ 1])
        }
    }
}
