import AudioTestSupport
import Foundation
import Spectral
import Testing

/// FFTW through `RealFFT`, measured against the analytic transform.
@Suite struct RealFFTTests {
    /// forward then inverse gives `size · x` (FFTW is unnormalised): after dividing by `size` the
    /// worst error on noise is at float rounding level.
    @Test(arguments: [64, 1024, 4096])
    func roundTripReturnsTheInput(size: Int) {
        let fft = RealFFT(size: size)
        let x = Measure.noise(count: size, amplitude: 0.5, seed: UInt64(size))
        for i in 0..<size { fft.time[i] = x[i] }
        fft.forward()
        fft.inverse()
        var worst = 0.0
        for i in 0..<size { worst = max(worst, abs(Double(fft.time[i]) / Double(size) - Double(x[i]))) }
        #expect(worst < 1e-6, "round-trip error \(worst)")
        #expect(Measure.rms(x) > 0.1, "level floor: the input was not silence")
    }

    /// A cosine of amplitude A on bin k (k whole periods in the frame) puts A·N/2 into bin k at
    /// phase φ, and next to nothing anywhere else; a constant c puts N·c into bin 0.
    @Test(arguments: [1, 37, 200, 511])
    func cosineOnABinHasTheAnalyticMagnitudeAndPhase(bin k: Int) {
        let size = 1024
        let fft = RealFFT(size: size)
        let amplitude = 0.25, phase = 0.7, offset = 0.1
        for n in 0..<size {
            fft.time[n] = Float(offset + amplitude * cos(2 * Double.pi * Double(k * n) / Double(size) + phase))
        }
        fft.forward()
        func bin(_ i: Int) -> (re: Double, im: Double) { (Double(fft.spectrum[2 * i]), Double(fft.spectrum[2 * i + 1])) }
        let peak = bin(k)
        let magnitude = (peak.re * peak.re + peak.im * peak.im).squareRoot()
        let expected = amplitude * Double(size) / 2
        #expect(abs(Measure.decibels(magnitude / expected)) < 0.001, "bin \(k): \(magnitude) vs \(expected)")
        #expect(abs(atan2(peak.im, peak.re) - phase) < 1e-4, "phase")
        #expect(abs(bin(0).re - offset * Double(size)) < 1e-3 && abs(bin(0).im) < 1e-3, "DC bin = N·c")
        var leakage = 0.0
        for i in 1..<fft.binCount where i != k {
            let b = bin(i)
            leakage = max(leakage, (b.re * b.re + b.im * b.im).squareRoot())
        }
        #expect(Measure.decibels(leakage / expected) < -100, "every other bin ≥ 100 dB down")
    }
}
