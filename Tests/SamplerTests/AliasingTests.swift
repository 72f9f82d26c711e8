import AudioTestSupport
import Foundation
import Sampler
import Testing

/// Aliases and images of transposition, measured: a bright looped sample played up by a pitch
/// step, the output's spectrum under a β-20 Kaiser window (side lobes far below −110 dB), and
/// the largest component that is not one of the tone's partials, in dB relative to the level
/// the tone's fundamental has when played at its root ("dBc").
///
/// Measured with the half-octave band-limited levels: live (the 4-point cubic, B-spline + 1/36 of
/// its second derivative) worst −91.3 dBc (the 15 kHz sine at +1 semitone, on the √2 level, 0.104
/// cycles per stored frame: its formula predicts −91.33; the saw −107.0 at +19), offline (16
/// taps) worst −122.8 dBc (the same sine; the saw −126.7); +30 semitones −126.5 / −128.7 dBc; the
/// 96 kHz sample at its root −146.5 / −146.4 dBc, a 192 kHz one −146.1 / −147.6; the top band just
/// above each level boundary within 0.0016 dB.
/// The former live kernel (4-point cubic Hermite, kept as `.cubic`) fails every case: the 15 kHz
/// sine's octave-up alias at 18 kHz at 0.0 dBc (asserted below), its images at +1 semitone at
/// −17.8 dBc, the saw at −20 to −41 dBc, the 96 kHz sample at its root −2.5 dBc.
@Suite struct AliasingTests {
    static let steps = [1, 7, 12, 19, 24]
    let liveLimit = -80.0
    let offlineLimit = -110.0
    /// Analysis length: 1.37 s at 48 kHz.
    let analysisFrames = 65_536
    let rootKey = 60

    /// A test tone: `partials` (Hz, amplitude) periodic in the 4800-frame loop at `sampleRate`.
    struct Tone {
        var partials: [(frequency: Double, amplitude: Double)]
        var sampleRate: Double

        func waveform() throws -> SamplerWaveform {
            let frames = 9_600
            let samples = (0..<frames).map { n -> Float in
                let t = Double(n) / sampleRate
                return Float(partials.reduce(0) { $0 + $1.amplitude * sin(2 * Double.pi * $1.frequency * t) })
            }
            // Every partial has a whole number of periods in 4800 frames: the loop is seamless.
            return try SamplerWaveform(channels: [samples], sampleRate: sampleRate, naturalLoop: SamplerLoop(startFrame: 4_800, endFrame: 9_600))
        }
    }

    /// 15 kHz at 48 kHz: 0.31 × the rate, its image at 33 kHz, its octave-up alias at 18 kHz.
    static let brightSine = Tone(partials: [(15_000, 0.5)], sampleRate: 48_000)
    /// 610 Hz saw band-limited to 20 kHz (32 partials at 1/k): 48 000 / 610 is no whole number,
    /// so no alias can land on a partial at any of the steps.
    static let saw = Tone(partials: (1...32).map { (610.0 * Double($0), 0.3 / Double($0)) }, sampleRate: 48_000)
    /// Recorded at 96 kHz: 15 kHz to keep; 30 and 40 kHz to remove (they would fold to 18 and 8 kHz).
    static let highRate = Tone(partials: [(15_000, 0.4), (30_000, 0.3), (40_000, 0.3)], sampleRate: 96_000)

    /// Output of the tone played `semitones` above its root, after 0.1 s.
    func play(_ tone: Tone, semitones: Int, cents: Double = 0, quality: InterpolationQuality) throws -> [Float] {
        var layer = plainLayer()
        layer.tuneCents = cents
        let program = SamplerProgram.single(try tone.waveform(), rootKey: rootKey, layer: layer)
        let sampler = instrument(playing: program, quality: quality)
        let out = render(sampler, frames: 4_800 + analysisFrames, events: [At(0, noteOn(rootKey + semitones))])
        return Array(out.left[4_800...])
    }

    /// Largest non-partial component in dBc, and where it lies.
    func spurious(_ tone: Tone, semitones: Int, quality: InterpolationQuality) throws -> (dBc: Double, frequency: Double) {
        let out = try play(tone, semitones: semitones, quality: quality)
        // Partials in Hz move by the musical ratio whatever the recording rate.
        let expected = tone.partials.map { $0.frequency * exp2(Double(semitones) / 12) }.filter { $0 < testSampleRate / 2 }
        let worst = Spectrum.largestSpurious(Spectrum.amplitudes(out[...]), sampleRate: testSampleRate, expected: expected)
        let reference = try carrier(tone, quality: quality)
        return (Measure.decibels(worst.amplitude / reference), worst.frequency)
    }

    /// The fundamental's amplitude as heard at the root (the lowest partial that plays through).
    func carrier(_ tone: Tone, quality: InterpolationQuality) throws -> Double {
        let out = try play(tone, semitones: 0, quality: quality)
        let spectrum = Spectrum.amplitudes(out[...])
        let binHz = testSampleRate / Double(analysisFrames)
        let bin = Int((tone.partials[0].frequency / binHz).rounded())
        return spectrum[(bin - 2)...(bin + 2)].max()!
    }

    static let tones = ["15 kHz sine": brightSine, "610 Hz saw": saw]

    func limit(_ quality: InterpolationQuality) -> Double { quality == .high ? offlineLimit : liveLimit }

    @Test(arguments: [InterpolationQuality.realtime, .high], tones.keys.sorted())
    func upwardStepsAreAliasFree(quality: InterpolationQuality, tone: String) throws {
        for semitones in Self.steps {
            let result = try spurious(Self.tones[tone]!, semitones: semitones, quality: quality)
            #expect(result.dBc <= limit(quality), "\(tone) +\(semitones): \(result.dBc) dBc at \(result.frequency) Hz")
        }
    }

    /// Beyond two octaves: +30 semitones (a step of 5.66) reads the level for steps ≤ 8.
    @Test(arguments: [InterpolationQuality.realtime, .high], tones.keys.sorted())
    func stepBeyondTwoOctavesIsAliasFree(quality: InterpolationQuality, tone: String) throws {
        let result = try spurious(Self.tones[tone]!, semitones: 30, quality: quality)
        #expect(result.dBc <= limit(quality), "\(tone) +30: \(result.dBc) dBc at \(result.frequency) Hz")
    }

    /// Just above the root (the commonest step: every note just above a multisample's root) the
    /// band the level keeps is flat: the saw's 16th partial (9.76 kHz, inside the step-√2 level's
    /// pass band to 0.318 of the source rate) at +1 semitone comes out at the level it has at the
    /// root, within 0.05 dB.
    @Test(arguments: [InterpolationQuality.realtime, .high])
    func passBandIsFlatJustAboveTheRoot(quality: InterpolationQuality) throws {
        let partial = 16 * 610.0
        let up = try play(Self.saw, semitones: 1, quality: quality)
        let root = try play(Self.saw, semitones: 0, quality: quality)
        let level = Measure.decibels(
            Measure.amplitude(up, at: partial * exp2(1.0 / 12), sampleRate: testSampleRate)
                / Measure.amplitude(root, at: partial, sampleRate: testSampleRate))
        #expect(abs(level) <= 0.05, "\(level) dB")
    }

    /// The top band at every upward step to +24 semitones: just above each level boundary (steps
    /// 1, √2, 2, 2√2 — +1, +6.1, +12.1, +18.1 semitones — where a level's band is narrowest, and
    /// +24), a sine that comes out just below 15 kHz has the level it has at the root, within
    /// 0.05 dB. With octave levels, +1 semitone kept only 10.8 kHz.
    @Test(arguments: [InterpolationQuality.realtime, .high])
    func topBandPassesJustAboveEachLevelBoundary(quality: InterpolationQuality) throws {
        for (semitones, cents) in [(1, 0.0), (6, 10), (12, 10), (18, 10), (24, 0)] {
            let ratio = exp2((Double(semitones) + cents / 100) / 12)
            // Whole periods in the 4800-frame loop: a multiple of 10 Hz.
            let source = ((14_950 / ratio) / 10).rounded(.down) * 10
            let tone = Tone(partials: [(source, 0.5)], sampleRate: 48_000)
            let up = try play(tone, semitones: semitones, cents: cents, quality: quality)
            let root = try play(tone, semitones: 0, quality: quality)
            let output = source * ratio
            #expect(output >= 14_900)
            let level = Measure.decibels(
                Measure.amplitude(up, at: output, sampleRate: testSampleRate) / Measure.amplitude(root, at: source, sampleRate: testSampleRate))
            #expect(abs(level) <= 0.05, "+\(semitones) st \(cents) ct, \(output) Hz: \(level) dB")
        }
    }

    @Test(arguments: [InterpolationQuality.realtime, .high])
    func sampleAtTwiceTheRateIsAliasFreeAtItsRoot(quality: InterpolationQuality) throws {
        let result = try spurious(Self.highRate, semitones: 0, quality: quality)
        #expect(result.dBc <= limit(quality), "96 kHz at root, \(quality): \(result.dBc) dBc at \(result.frequency) Hz")
    }

    /// Recorded at 192 kHz (4× the engine rate, the step-4 level): 15 kHz to keep; 60 and 80 kHz
    /// to remove (they would fold to 12 and 16 kHz).
    @Test(arguments: [InterpolationQuality.realtime, .high])
    func sampleAtFourTimesTheRateIsAliasFreeAtItsRoot(quality: InterpolationQuality) throws {
        let tone = Tone(partials: [(15_000, 0.4), (60_000, 0.3), (80_000, 0.3)], sampleRate: 192_000)
        let result = try spurious(tone, semitones: 0, quality: quality)
        #expect(result.dBc <= limit(quality), "192 kHz at root, \(quality): \(result.dBc) dBc at \(result.frequency) Hz")
    }
    /// A bend the preset does not foresee: a zone on one key with the default bend range (its own
    /// reach: +4 semitones), then RPN 0 set to 24 semitones and the wheel fully up. Every region
    /// has the levels to +24 semitones (`SamplerProgram.guaranteedStep`), so this stays alias-free;
    /// levels built only to the zone's reach measured −20.5 dBc (the saw folding back at 23.6 kHz);
    /// with them −107.0 live, −126.4 offline.
    @Test(arguments: [InterpolationQuality.realtime, .high])
    func bendBeyondThePresetsRangeIsAliasFree(quality: InterpolationQuality) throws {
        var zone = SamplerZone(waveform: try Self.saw.waveform(), rootKey: rootKey)
        zone.minKey = rootKey
        zone.maxKey = rootKey
        let sampler = instrument(playing: try SamplerProgram(layers: [plainLayer()], zones: [zone], globals: SamplerGlobals()), quality: quality)
        let bendRange = [At(0, controlChange(101, 0)), At(0, controlChange(100, 0)), At(0, controlChange(6, 24))]
        let out = render(sampler, frames: 4_800 + analysisFrames,
                         events: bendRange + [At(0, .pitchBend(channel: 0, value: 8_191)), At(0, noteOn(rootKey))])
        let ratio = exp2(24 * 8_191 / 8_192 / 12.0)
        let expected = Self.saw.partials.map { $0.frequency * ratio }.filter { $0 < testSampleRate / 2 }
        let worst = Spectrum.largestSpurious(Spectrum.amplitudes(out.left[4_800...]), sampleRate: testSampleRate, expected: expected)
        let dBc = Measure.decibels(worst.amplitude / (try carrier(Self.saw, quality: quality)))
        #expect(dBc <= limit(quality), "+24 st by bend, \(quality): \(dBc) dBc at \(worst.frequency) Hz")
    }

    /// The live kernel's images are its response's, as the formula gives it: content at f cycles
    /// per stored frame leaves images at k ± f (k = 1, 2, …), H(k ± f)/H(f) below it, with
    /// H(f) = sinc⁴(f) · (1 − (πf)²/9). The 15 kHz sine at +1 semitone lies at f = 15/48/3 (the √2
    /// level, 3 stored frames per source frame), near that level's pass-band edge.
    @Test func liveImageMatchesTheKernelsFormula() throws {
        func response(_ f: Double) -> Double {
            let x = Double.pi * f
            return pow(sin(x) / x, 4) * (1 - x * x / 9)
        }
        let f = 15_000.0 / 48_000 / 3
        let images = (1...8).flatMap { k in [Double(k) - f, Double(k) + f] }.map { abs(response($0)) / response(f) }
        let predicted = Measure.decibels(images.max()!)
        let result = try spurious(Self.brightSine, semitones: 1, quality: .realtime)
        #expect(abs(result.dBc - predicted) <= 0.5, "\(result.dBc) dBc at \(result.frequency) Hz, formula \(predicted)")
    }

    /// The measurement sees what the old kernel did: the octave-up alias at 18 kHz near full level.
    @Test func formerCubicKernelAliasesAtFullLevel() throws {
        let result = try spurious(Self.brightSine, semitones: 12, quality: .cubic)
        #expect(result.dBc > -10, "\(result.dBc) dBc")
        #expect(abs(result.frequency - 18_000) < 20)
    }

    /// Transposition stays in tune through the band-limited kernels: the saw's fundamental and the
    /// 15 kHz sine a semitone down (up, it lies at the step-√2 level's band edge) within 0.5 cent.
    @Test(arguments: [InterpolationQuality.realtime, .high])
    func transposedPitchIsExact(quality: InterpolationQuality) throws {
        for semitones in Self.steps {
            let ratio = exp2(Double(semitones) / 12)
            let out = try play(Self.saw, semitones: semitones, quality: quality)
            let measured = try #require(Measure.frequency(out, sampleRate: testSampleRate, guess: 610 * ratio))
            #expect(abs(Measure.cents(measured, relativeTo: 610 * ratio)) <= 0.5, "saw +\(semitones): \(measured) Hz")
        }
        let sine = try play(Self.brightSine, semitones: -1, quality: quality)
        let expected = 15_000 * exp2(-1.0 / 12)
        let measured = try #require(Measure.frequency(sine, sampleRate: testSampleRate, guess: expected))
        #expect(abs(Measure.cents(measured, relativeTo: expected)) <= 0.5, "sine −1: \(measured) Hz")
    }
}
