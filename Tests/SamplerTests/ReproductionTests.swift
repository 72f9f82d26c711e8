import AudioTestSupport
import Sampler
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A zone played at its root key reproduces its sample: the voice resamples a 44.1 kHz recording
/// of a 1 kHz + 5 kHz tone to 48 kHz, and the result is compared with the same tone computed at
/// 48 kHz directly (a null test).
@Suite struct ReproductionTests {
    let recordedRate = 44_100.0

    func recordedTone(at rate: Double, frames: Int) -> [Float] {
        (0..<frames).map { n in
            let t = Double(n) / rate
            return Float(0.5 * sin(2 * Double.pi * 1000 * t) + 0.25 * sin(2 * Double.pi * 5000 * t))
        }
    }

    func nullResidual(quality: InterpolationQuality) throws -> Double {
        let waveform = try SamplerWaveform(channels: [recordedTone(at: recordedRate, frames: 88_200)], sampleRate: recordedRate)
        let sampler = instrument(playing: SamplerProgram.single(waveform, rootKey: 60, layer: plainLayer()), quality: quality)
        let out = render(sampler, frames: 48_000, events: [At(0, noteOn(60))])
        let reference = recordedTone(at: testSampleRate, frames: 48_000)
        // Skip the first 10 ms: the envelope's 0.25 ms corner smoothing settles there.
        var worst = 0.0
        for n in 480..<48_000 {
            worst = max(worst, abs(Double(out.left[n] / centrePanGain - reference[n])))
        }
        return worst
    }

    /// Offline kernel (16 taps on level 0): the bound (−80 dB) leaves room for Float rounding.
    @Test func highQualityNullsAgainstTheDirectTone() throws {
        let residual = try nullResidual(quality: .high)
        #expect(residual < 1e-4, "residual \(Measure.decibels(residual)) dB")
    }

    /// Live kernel (the 4-point cubic on level 0); the bound is the former cubic Hermite's (measured
    /// −55 dB with the 5 kHz partial, bound −46 dB).
    @Test func realtimeNullsWithinHermiteError() throws {
        let residual = try nullResidual(quality: .realtime)
        #expect(residual < 5e-3, "residual \(Measure.decibels(residual)) dB")
    }

    /// At the root key and the same rate the voice reads the frames unchanged: it reads level 0
    /// at every fourth stored frame, fraction 0, where the kernel's weights (7, 22, 7)/36 undo the
    /// level's prefilter (its filter passes 5 kHz at exactly 1/H; what differs is the kernel's
    /// images summed, ≈ 10⁻⁷ at 5 kHz, and FFT rounding).
    @Test func sameRateAtRootIsBitExactAfterTheAttack() throws {
        let tone = recordedTone(at: testSampleRate, frames: 24_000)
        let waveform = try SamplerWaveform(channels: [tone], sampleRate: testSampleRate)
        let sampler = instrument(playing: SamplerProgram.single(waveform, rootKey: 60, layer: plainLayer()))
        let out = render(sampler, frames: 20_000, events: [At(0, noteOn(60))])
        var worst: Float = 0
        for n in 480..<20_000 { worst = max(worst, abs(out.left[n] / centrePanGain - tone[n])) }
        #expect(worst < 1e-6)
    }
}
