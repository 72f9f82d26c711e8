#if canImport(Glibc)
import Glibc
#endif

/// Peak and RMS of one channel with meter ballistics: peak holds the block maximum and falls at
/// 20 dB/s; RMS is averaged over a 300 ms window (exponential). Render-thread safe value type.
public struct LevelMeter {
    public private(set) var peak: Float = 0
    public private(set) var meanSquare: Float = 0
    private let peakFallPerFrame: Float
    private let rmsCoefficient: Float
    /// d⁸ and (d⁷, d⁶, …, 1), d = 1 − `rmsCoefficient`: the block form of the average (`process`).
    private let decayEight: Float
    private let laneWeights: SIMD8<Float>

    public init(sampleRate: Double) {
        peakFallPerFrame = Float(pow(10, -20 / 20 / sampleRate))
        let k = 1 - exp(-1 / (0.3 * sampleRate))
        rmsCoefficient = Float(k)
        decayEight = Float(pow(1 - k, 8))
        var weights = SIMD8<Float>()
        for j in 0..<8 { weights[j] = Float(pow(1 - k, Double(7 - j))) }
        laneWeights = weights
    }

    @_noAllocation
    public mutating func process(_ samples: UnsafePointer<Float>, frames: Int) {
        // The peak in its own vectorised pass: in one loop with the average's recursion it ran
        // one frame at a time.
        peak = BlockPeak.of(samples, frames: frames, from: peak * powf(peakFallPerFrame, Float(frames)))
        // The average's recursion ms += k·(x² − ms) over N frames is ms·dᴺ + k·Σ dᴺ⁻¹⁻ⁱ·xᵢ²
        // (d = 1 − k). The sum runs as eight interleaved recursions, each stepping by d⁸, so no
        // frame waits for the one before it (frame by frame, the chain of multiply-adds was the
        // render thread's slowest loop after the voices').
        let d = 1 - rmsCoefficient
        var lanes = SIMD8<Float>()
        var i = 0
        while i &+ 8 <= frames {
            let x = UnsafeRawPointer(samples + i).loadUnaligned(as: SIMD8<Float>.self)
            lanes = lanes * decayEight + x * x
            i &+= 8
        }
        var sum = (lanes * laneWeights).sum()
        while i < frames {
            sum = sum * d + samples[i] * samples[i]
            i &+= 1
        }
        let ms = meanSquare * powf(d, Float(frames)) + rmsCoefficient * sum
        meanSquare = ms < 1e-20 ? 0 : ms
    }

    /// `frames` of silence, without a buffer of zeros (a bus that rendered nothing this block).
    @_noAllocation
    public mutating func processSilence(frames: Int) {
        peak *= powf(peakFallPerFrame, Float(frames))
        meanSquare *= powf(1 - rmsCoefficient, Float(frames))
        if meanSquare < 1e-20 { meanSquare = 0 }
    }

    public var rms: Float { @_noAllocation get { RealTimeMath.sqrt(meanSquare) } }
    public var peakDecibels: Double { @_noAllocation get { Decibels.fromGain(Double(peak)) } }
    public var rmsDecibels: Double { @_noAllocation get { Decibels.fromGain(Double(rms)) } }

    @_noAllocation
    public mutating func reset() {
        peak = 0
        meanSquare = 0
    }
}
