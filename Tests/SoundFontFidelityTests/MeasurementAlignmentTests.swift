import Foundation
import SoundFontFidelity
import Testing

/// The measurement's own pieces, on signals whose answer is known: the onset lag FluidSynth's
/// render is measured from, and the interpolation response our render is compared through.
@Suite struct MeasurementAlignmentTests {
    /// A decaying 220 Hz tone starting `delay` frames into a 1 s buffer (after 20 frames of a
    /// slow ramp, as a sample's first frames are).
    func note(delay: Int) -> [Float] {
        (0..<44_100).map { i in
            let t = i - delay
            guard t >= 0 else { return 0 }
            return Float(min(1, Double(t) / 20) * exp(-Double(t) / 8000) * sin(2 * Double.pi * 220 * Double(t) / 44_100))
        }
    }

    @Test func lagIsTheFramesBetweenTheTwoOnsets() {
        let window = NoteWindow(onset: 100, release: 20_000, end: 40_000)
        for delay in [0, 64, 129] {
            let reference = note(delay: 100 + delay), ours = note(delay: 100)
            let lag = OnsetAlignment.lag(reference: (reference, reference), ours: (ours, ours), window: window, sampleRate: 44_100)
            #expect(abs(lag - delay) <= 1, "lag \(lag) for \(delay) frames")
        }
        let silent = [Float](repeating: 0, count: 44_100)
        #expect(OnsetAlignment.lag(reference: (silent, silent), ours: (note(delay: 100), note(delay: 100)), window: window, sampleRate: 44_100) == 0)
    }

    @Test func interpolationResponseIsCatmullRomsMeanGain() {
        let transposed = FluidSynthInterpolation(step: 0.7937)  // −4 semitones
        func decibels(_ ν: Double) -> Double { 20 * log10(transposed.gain(at: ν)) }
        #expect(abs(decibels(0)) < 0.001)
        #expect(abs(decibels(0.125) + 0.039) < 0.005)
        #expect(abs(decibels(0.25) + 0.547) < 0.005)
        #expect(decibels(0.45) < -4)
        #expect(transposed.gain(at: 0.5) == 0)
        // At the sample's own rate and root every read is a sample point: no interpolation at all.
        #expect(abs(FluidSynthInterpolation(step: 1).gain(at: 0.45) - 1) < 1e-9)
    }
}
