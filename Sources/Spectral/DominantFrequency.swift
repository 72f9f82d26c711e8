import DSP

/// An STFT frame processor that leaves the spectrum untouched and finds its strongest bin,
/// refined by a parabola through the log magnitudes of that bin and its neighbours (for a Hann
/// window this lands within a few hundredths of a bin of a pure tone's frequency).
public struct DominantFrequencyFinder: SpectralFrameProcessor {
    public let sampleRate: Double
    public let frameSize: Int
    /// Latest estimate in Hz (0 until a frame with any energy was seen).
    public private(set) var frequencyHz: Double = 0
    /// Magnitude of the peak bin (unnormalised FFT units; compare between channels only).
    public private(set) var peakMagnitude: Float = 0

    public init(sampleRate: Double, frameSize: Int) {
        self.sampleRate = sampleRate
        self.frameSize = frameSize
    }

    @_noAllocation
    public mutating func process(spectrum: UnsafeMutablePointer<Float>, binCount: Int) {
        var best = 1, bestPower: Float = 0
        for k in 1..<(binCount - 1) {
            let p = spectrum[2 * k] * spectrum[2 * k] + spectrum[2 * k + 1] * spectrum[2 * k + 1]
            if p > bestPower { bestPower = p; best = k }
        }
        peakMagnitude = RealTimeMath.sqrt(bestPower)
        guard bestPower > 1e-20 else { return }
        func logPower(_ k: Int) -> Double {
            Double(RealTimeMath.log(max(spectrum[2 * k] * spectrum[2 * k] + spectrum[2 * k + 1] * spectrum[2 * k + 1], 1e-30)))
        }
        let (a, b, c) = (logPower(best - 1), logPower(best), logPower(best + 1))
        let denominator = a - 2 * b + c
        let offset = denominator < 0 ? 0.5 * (a - c) / denominator : 0
        frequencyHz = (Double(best) + min(max(offset, -0.5), 0.5)) * sampleRate / Double(frameSize)
    }

    @_noAllocation
    public mutating func reset() {
        frequencyHz = 0
        peakMagnitude = 0
    }
}
