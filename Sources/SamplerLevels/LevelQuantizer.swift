import Sampler

/// How a 16-bit waveform's levels are stored: as 16-bit integers, each channel and level scaled to
/// its own peak (Sources/SamplerLevels/README.md, "16-bit levels for 16-bit waveforms").
enum LevelQuantizer {
    /// A channel's Float levels stored as 16-bit integers, each scaled to its peak (the Float
    /// buffers are freed): half the memory, the quantisation noise 96 dB under the level's peak,
    /// as the 16-bit source's own. For the levels of a 16-bit waveform.
    static func quantized(_ levels: [UnsafeMutablePointer<Float>], counts: [Int]) -> RegionLevels.Channel {
        .int16(zip(levels, counts).map { buffer, count in
            let scale = quantizingScale(buffer, count: count)
            let samples = UnsafeMutablePointer<Int16>.allocate(capacity: count)
            quantize(buffer, count: count, by: 1 / scale, into: samples)
            buffer.deallocate()
            return (samples, scale)
        })
    }

    /// Peak / 32767 (1 for silence), eight samples at a time.
    private static func quantizingScale(_ buffer: UnsafeMutablePointer<Float>, count: Int) -> Float {
        var peaks = SIMD8<Float>(), i = 0
        let raw = UnsafeRawPointer(buffer)
        while i &+ 8 <= count {
            // |v| by clearing the sign bits; a lane-wise select, as pointwiseMax was a call per vector.
            let v = unsafeBitCast(unsafeBitCast(raw.loadUnaligned(fromByteOffset: 4 &* i, as: SIMD8<Float>.self), to: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: SIMD8<Float>.self)
            peaks.replace(with: v, where: v .> peaks)
            i &+= 8
        }
        var peak = peaks.max()
        while i < count {
            peak = max(peak, abs(buffer[i]))
            i += 1
        }
        return peak > 0 && peak.isFinite ? peak / 32_767 : 1
    }

    /// `buffer` × `inverse` rounded to the nearest integer (ties to even), eight at a time:
    /// adding 1.5 × 2²³ rounds in the FPU's mode and leaves the integer in the low bits of the
    /// sum's bit pattern (|value| ≤ 32767 ≪ 2²²), so no conversion call per sample.
    private static func quantize(_ buffer: UnsafeMutablePointer<Float>, count: Int, by inverse: Float, into samples: UnsafeMutablePointer<Int16>) {
        let magic = SIMD8<Float>(repeating: 12_582_912), scale = SIMD8<Float>(repeating: inverse)
        let from = UnsafeRawPointer(buffer), to = UnsafeMutableRawPointer(samples)
        var i = 0
        while i &+ 8 <= count {
            let sum = from.loadUnaligned(fromByteOffset: 4 &* i, as: SIMD8<Float>.self) * scale + magic
            let integers = unsafeBitCast(sum, to: SIMD8<Int32>.self) &- 0x4B40_0000
            to.storeBytes(of: SIMD8<Int16>(truncatingIfNeeded: integers), toByteOffset: 2 &* i, as: SIMD8<Int16>.self)
            i &+= 8
        }
        while i < count {
            samples[i] = Int16((buffer[i] * inverse).rounded(.toNearestOrEven))
            i += 1
        }
    }
}
