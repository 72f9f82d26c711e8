import AudioTestSupport
import Spectral
import Testing
import MicEffects

/// An STFT processor that changes nothing (tests the frame engine alone).
struct Untouched: SpectralFrameProcessor {
    mutating func process(spectrum: UnsafeMutablePointer<Float>, binCount: Int) {}
    mutating func reset() {}
}

@Suite struct SpectralPassTests {
    let fs = ChainHarness.sampleRate
    /// Float FFTs of 1024 points round to ~1e-7 relative; the brief's bound.
    let identityTolerance: Float = 1e-5

    @Test(arguments: [1, 3, 64, 100, 1024])
    func stftReturnsTheInputAfterItsLatency(blockFrames: Int) {
        let stft = STFT(frameSize: 1024, overlap: 4, processor: Untouched())
        let input = Measure.whiteNoise(count: 20_000, rms: 0.3, seed: 42)
        var output = [Float](repeating: 0, count: input.count)
        var start = 0
        input.withUnsafeBufferPointer { x in
            output.withUnsafeMutableBufferPointer { y in
                while start < input.count {
                    let n = min(blockFrames, input.count - start)
                    stft.process(x.baseAddress! + start, y.baseAddress! + start, count: n)
                    start += n
                }
            }
        }
        let latency = stft.latencyFrames
        #expect(latency == 1024)
        var worst: Float = 0
        for i in 0..<(input.count - latency) { worst = max(worst, abs(output[i + latency] - input[i])) }
        #expect(worst < identityTolerance)
        #expect(Measure.peak(output[0..<latency]) < Double(identityTolerance))  // only FFT rounding before the latency
    }

    @Test func fftEffectIsIdentityAfterLatencyInStereo() {
        let chain = ChainHarness.chain(.fft)
        let left = Measure.whiteNoise(count: 30_000, rms: 0.2, seed: 7)
        let right = Measure.sine(frequency: 997, sampleRate: fs, count: 30_000)
        let out = ChainHarness.run(chain, left: left, right: right)
        let latency = chain.latencyFrames
        #expect(latency == 1024)
        var worst: Float = 0
        for i in 0..<(left.count - latency) {
            worst = max(worst, abs(out.left[i + latency] - left[i]), abs(out.right[i + latency] - right[i]))
        }
        #expect(worst < identityTolerance)
    }

    @Test(arguments: [97.0, 440.0, 1234.5, 3333.3])
    func dominantFrequencyReadout(frequency: Double) {
        let chain = ChainHarness.chain(.fft)
        let tone = Measure.sine(frequency: frequency, sampleRate: fs, count: 24_000)
        let quiet = Measure.sine(frequency: frequency * 1.5, sampleRate: fs, count: 24_000, amplitude: 0.1)
        _ = ChainHarness.run(chain, left: tone, right: quiet)
        let reported = Double(chain.readouts.dominantFrequencyHz.value)
        // Parabolic interpolation of Hann log-magnitudes: ≤ ~0.05 bin (2.3 Hz) of bias; a bin is 46.9 Hz.
        let toleranceHz = 2.5
        #expect(abs(reported - frequency) < toleranceHz, "reported \(reported)")
    }
}
