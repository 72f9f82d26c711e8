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

    public init(sampleRate: Double) {
        peakFallPerFrame = Float(pow(10, -20 / 20 / sampleRate))
        rmsCoefficient = Float(1 - exp(-1 / (0.3 * sampleRate)))
    }

    @_noAllocation
    public mutating func process(_ samples: UnsafePointer<Float>, frames: Int) {
        // The peak in its own vectorised pass: in one loop with the average's recursion it ran
        // one frame at a time.
        peak = BlockPeak.of(samples, frames: frames, from: peak * powf(peakFallPerFrame, Float(frames)))
        var ms = meanSquare
        let k = rmsCoefficient
        for i in 0..<frames {
            let x = samples[i]
            ms += k * (x * x - ms)
        }
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
