import AudioTestSupport
import Foundation
import Spectral
import Testing

@Suite struct PitchDetectorTests {
    let fs = 48_000.0

    static let cleanFrequencies = [50.0, 61.7, 82.4, 110, 146.8, 196, 261.6, 349.2, 440, 587.3, 784, 1046.5, 1396.9, 2000]

    @Test(arguments: cleanFrequencies)
    func cleanSineWithinOneCent(frequency: Double) {
        let x = Measure.sine(frequency: frequency, sampleRate: fs, count: 24_000)
        let track = PitchDetector.analyze(samples: x, sampleRate: fs, hop: 1_000)
        #expect(track.count > 10)
        let toleranceCents = 1.0  // brief: within 1 cent on clean tones
        for (_, e) in track {
            #expect(e.voiced)
            #expect(abs(Measure.cents(e.frequencyHz, relativeTo: frequency)) < toleranceCents, "\(e.frequencyHz)")
        }
    }

    @Test(arguments: [55.0, 110, 220, 440, 880])
    func cleanHarmonicToneWithinOneCent(frequency: Double) {
        let x = Measure.harmonicTone(frequency, harmonics: 8, count: 24_000, sampleRate: fs)
        for (_, e) in PitchDetector.analyze(samples: x, sampleRate: fs, hop: 1_000) {
            #expect(e.voiced && e.confidence > 0.9)
            #expect(abs(Measure.cents(e.frequencyHz, relativeTo: frequency)) < 1.0, "\(e.frequencyHz)")
        }
    }

    /// Tones in white noise at ≈ 10 dB SNR: fewer than 1 % of frames unvoiced or more than
    /// 50 cents off (octave and fifth errors are what "gross" catches).
    @Test func noisyTonesHaveUnderOnePercentGrossErrors() {
        var frames = 0, gross = 0
        for (i, f) in [65.4, 98, 130.8, 196, 261.6, 392, 523.3, 784, 1046.5].enumerated() {
            let tone = Measure.harmonicTone(f, harmonics: 4, count: 48_000, sampleRate: fs)
            let noise = Measure.whiteNoise(count: tone.count, rms: Measure.rms(tone) / pow(10, 10.0 / 20), seed: 1_000 + UInt64(i))
            let rmsTone = Measure.rms(tone), rmsNoise = Measure.rms(noise)
            #expect(abs(20 * log10(rmsTone / rmsNoise) - 10) < 0.5)
            let x = zip(tone, noise).map { $0 + $1 }
            for (_, e) in PitchDetector.analyze(samples: x, sampleRate: fs, hop: 480) {
                frames += 1
                if !e.voiced || abs(Measure.cents(e.frequencyHz, relativeTo: f)) > 50 { gross += 1 }
            }
        }
        #expect(frames > 500)
        #expect(Double(gross) / Double(frames) < 0.01, "\(gross) of \(frames)")
    }

    @Test func silenceAndNoiseAreUnvoiced() {
        let silence = [Float](repeating: 0, count: 10_000)
        #expect(PitchDetector.analyze(samples: silence, sampleRate: fs, hop: 1_000).filter { $0.estimate.voiced }.isEmpty)
        let noise = Measure.whiteNoise(count: 20_000, rms: 0.2, seed: 99)
        let track = PitchDetector.analyze(samples: noise, sampleRate: fs, hop: 1_000)
        #expect(track.filter { $0.estimate.voiced }.count <= track.count / 10)
    }

    @Test func incrementalPushMatchesOfflineAnalysis() {
        let x = Measure.harmonicTone(196, harmonics: 5, count: 20_000, sampleRate: fs)
        let detector = PitchDetector(sampleRate: fs, hopFrames: 512)
        var last = PitchEstimate.unvoiced
        x.withUnsafeBufferPointer { p in
            var start = 0
            while start < x.count {
                let n = min(64, x.count - start)
                if detector.push(p.baseAddress! + start, count: n) { last = detector.latest }
                start += n
            }
        }
        #expect(last.voiced)
        #expect(abs(Measure.cents(last.frequencyHz, relativeTo: 196)) < 1)
    }
}
