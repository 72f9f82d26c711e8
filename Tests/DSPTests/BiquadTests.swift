import AudioTestSupport
import DSP
import Foundation
import Testing

@Suite struct BiquadTests {
    let rate = 48000.0

    @Test(arguments: [BiquadCoefficients.Kind.lowPass, .highPass], [100.0, 1000.0, 8000.0])
    func butterworthIsMinus3dBAtTheCutoff(kind: BiquadCoefficients.Kind, cutoff: Double) {
        let c = BiquadCoefficients.design(kind, cutoffHz: cutoff, resonanceDecibels: 0, sampleRate: rate)
        #expect(abs(Measure.decibels(c.magnitude(atHz: cutoff, sampleRate: rate)) + 3.0103) < 0.001)
    }

    @Test func resonanceRaisesTheCutoffGainDecibelForDecibel() {
        for r in [-6.0, 3, 6, 12] {
            let c = BiquadCoefficients.design(.lowPass, cutoffHz: 2000, resonanceDecibels: r, sampleRate: rate)
            #expect(abs(Measure.decibels(c.magnitude(atHz: 2000, sampleRate: rate)) - (r - 3.0103)) < 0.001)
        }
    }

    @Test func lowPassPassesDCAndStopsNyquist() {
        let lp = BiquadCoefficients.design(.lowPass, cutoffHz: 1000, resonanceDecibels: 0, sampleRate: rate)
        #expect(abs(lp.magnitude(atHz: 0, sampleRate: rate) - 1) < 1e-9)
        #expect(lp.magnitude(atHz: rate / 2, sampleRate: rate) < 1e-6)
        let hp = BiquadCoefficients.design(.highPass, cutoffHz: 1000, resonanceDecibels: 0, sampleRate: rate)
        #expect(hp.magnitude(atHz: 0, sampleRate: rate) < 1e-9)
        #expect(abs(hp.magnitude(atHz: rate / 2, sampleRate: rate) - 1) < 1e-6)
    }

    /// Filtering a steady sine scales it by exactly |H(f)| (after the transient).
    @Test func processingMatchesTheTransferFunction() {
        let c = BiquadCoefficients.design(.lowPass, cutoffHz: 1500, resonanceDecibels: 6, sampleRate: rate)
        for f in [200.0, 1500, 3000, 9000] {
            let x = Measure.sine(frequency: f, sampleRate: rate, count: 24000, amplitude: 0.5)
            var left = x, right = x
            var filter = StereoBiquad(coefficients: c)
            left.withUnsafeMutableBufferPointer { l in
                right.withUnsafeMutableBufferPointer { r in
                    filter.process(StereoBlock(left: l.baseAddress!, right: r.baseAddress!, frames: x.count))
                }
            }
            let measured = Measure.amplitude(left[8000...], at: f, sampleRate: rate) / 0.5
            #expect(abs(Measure.decibels(measured) - Measure.decibels(c.magnitude(atHz: f, sampleRate: rate))) < 0.01)
        }
    }
}

@Suite struct BandPassTests {
    /// The constant-peak band-pass: 0 dB at its centre, −3 dB at the band edges given by Q, zeros
    /// at DC and Nyquist. The edges are the analog prototype's (Ω − 1/Ω = ±1/Q, geometric about
    /// the centre) carried through the bilinear transform's warping, tan(ω/2) = Ω·tan(ω₀/2).
    @Test(arguments: [(3000.0, 2.0), (200.0, 0.707), (12_000.0, 8.0)])
    func peaksAtZeroDecibelsAndIsThreeDecibelsDownAtTheBandEdges(centre: Double, q: Double) {
        let rate = 48000.0
        let c = BiquadCoefficients.design(.bandPass, cutoffHz: centre, q: q, sampleRate: rate)
        #expect(abs(Measure.decibels(c.magnitude(atHz: centre, sampleRate: rate))) < 1e-9)
        let warpedCentre = tan(Double.pi * centre / rate)
        for sign in [-1.0, 1.0] {
            let edge = (sign / q + (1 / (q * q) + 4).squareRoot()) / 2
            let edgeHz = atan(edge * warpedCentre) * rate / Double.pi
            let level = Measure.decibels(c.magnitude(atHz: edgeHz, sampleRate: rate))
            #expect(abs(level - 10 * log10(0.5)) < 1e-6, "\(edgeHz) Hz: \(level) dB")
        }
        #expect(c.magnitude(atHz: 0, sampleRate: rate) < 1e-12)
        #expect(c.magnitude(atHz: rate / 2, sampleRate: rate) < 1e-9)
    }
}
