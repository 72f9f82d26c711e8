import AudioFiles
import Glibc
import MIDI

/// The melodic General MIDI families beyond bass, guitar, strings and organ: piano, mallets, bells,
/// plucked strings, brass, reeds, flutes, synth leads and pads, voices, membranes and noise. Each
/// is a few looped 44.1 kHz 16-bit mono WAVs (`<Folder>/<file>-<root>.wav`, root key and an exactly
/// periodic loop in `smpl`): an attack of its own character, then a steady loop. How a family
/// decays (a piano's minute-long fade, a marimba's second, a pizzicato's blip) is the program's
/// envelope in the instrument file, so one set serves every program of its family.
struct ToneFamily: Sendable {
    var folder: String
    var file: String
    var roots: [Int]
    var loopSeconds: Double
    /// The tone at `frequency` Hz, for a loop of `periods` periods.
    var tone: @Sendable (_ frequency: Double, _ periods: Int) -> HarmonicTone
    /// A memoryless waveshaper applied to the rendered tone (overdrive); it keeps the loop exact.
    var shaper: (@Sendable (Double) -> Double)? = nil

    static let sampleRate = 44_100.0

    /// Writes the family's samples under `sounds`; returns them (file and root) for the preset.
    func write(to sounds: String) throws(AudioFileError) -> [GMInstruments.Sample] {
        mkdir(sounds + "/" + folder, 0o755)
        return try roots.map { root throws(AudioFileError) in
            let frequency = noteFrequency(Double(root))
            let loop = PeriodicLoop.lasting(seconds: loopSeconds, frequency: frequency, sampleRate: Self.sampleRate)
            var rendered = tone(frequency, loop.periods).render(loop: loop, peak: 0.9)
            if let shaper {
                rendered.samples = LoopBuffer.normalized(rendered.samples.map { shaper(Double($0)) }, peak: 0.9)
            }
            let path = "\(folder)/\(file)-\(root).wav"
            try SampleInstruments.writeLoopedWAV(rendered, path: sounds + "/" + path, sampleRate: Int(Self.sampleRate), rootKey: root)
            return GMInstruments.Sample(file: path, rootKey: root)
        }
    }
}

/// Spectra of the families, as functions of the harmonic number and its frequency.
enum ToneFamilies {
    typealias Partial = HarmonicTone.Partial
    typealias Transient = HarmonicTone.Transient

    /// Harmonics 1… up to `maxHz` (the sampler band-limits what transposition pushes higher),
    /// with steady and attack levels from the closures and seeded phases.
    static func harmonics(
        _ frequency: Double, maxHz: Double = 14_000, seed: UInt64, only: (Int) -> Bool = { _ in true },
        steady: (Int, Double) -> Double, attack: (Int, Double) -> Double = { _, _ in 1 }
    ) -> [Partial] {
        var random = SeededRandom(seed: seed)
        var partials: [Partial] = []
        for n in 1...200 where Double(n) * frequency <= maxHz && only(n) {
            let hz = Double(n) * frequency
            let level = steady(n, hz)
            partials.append(Partial(harmonic: n, attackAmplitude: level * attack(n, hz), steadyAmplitude: level, phase: Double.pi * random.bipolar()))
        }
        return partials
    }

    /// A partial at `ratio` × the fundamental, rounded to whole cycles of the loop (within 1/loop
    /// seconds of the exact frequency), so an inharmonic spectrum still loops exactly.
    static func inharmonic(_ ratio: Double, periods: Int, steady: Double, attack: Double, phase: Double) -> Partial {
        Partial(harmonic: 0, attackAmplitude: attack, steadyAmplitude: steady, phase: phase, detuneCycles: Int((ratio * Double(periods)).rounded()))
    }

    /// Copies of `partials` detuned by ± whole cycles per loop (`spread` × harmonic) at `level`
    /// each, the two of a pair with mirrored phase offsets so that their beating leaves the pitch
    /// exact: an ensemble (as the strings are made).
    static func ensemble(_ partials: [Partial], spreads: [Int], level: Double, seed: UInt64) -> [Partial] {
        var random = SeededRandom(seed: seed)
        var result = partials
        for spread in spreads {
            for partial in partials {
                let offset = Double.pi * random.bipolar()
                for sign in [-1, 1] {
                    var copy = partial
                    copy.attackAmplitude *= level
                    copy.steadyAmplitude *= level
                    copy.phase += Double(sign) * offset
                    copy.detuneCycles = sign * spread * partial.harmonic
                    result.append(copy)
                }
            }
        }
        return result
    }

    /// A resonance's magnitude at `hz` (centre `center`, bandwidth `width`), 1 at the centre.
    static func resonance(_ hz: Double, center: Double, width: Double) -> Double {
        1 / (1 + pow((hz - center) / (width / 2), 2)).squareRoot()
    }

    static func lowPass(_ hz: Double, _ cutoff: Double, order: Double = 2) -> Double { 1 / (1 + pow(hz / cutoff, order)) }

    /// Acoustic piano: partials stretched by string stiffness (f·n·(1 + B·n²/2)), the hammer's
    /// comb (struck at 1/8 of the string: every 8th partial missing), a second string beating
    /// against the first, a bright attack darkening over 0.4 s, and the hammer's thump.
    static let piano = ToneFamily(folder: "Piano", file: "piano", roots: [48, 60, 72], loopSeconds: 0.5) { frequency, periods in
        let stiffness = 0.0004 * frequency / 261.6
        var random = SeededRandom(seed: 0x9_1A40)
        var partials: [Partial] = []
        for n in 1...40 where Double(n) * frequency < 12_000 {
            let stretch = Double(n) * (1 + stiffness * Double(n * n) / 2)
            let comb = abs(sin(Double.pi * Double(n) / 8)) + 0.05
            let steady = comb / pow(Double(n), 1.4) * lowPass(Double(n) * frequency, 2_500)
            let attack = steady * (1 + 2.5 * Double(min(n - 1, 12)) / 12)
            let cycles = Int((stretch * Double(periods)).rounded())
            let phase = Double.pi * random.bipolar()
            partials.append(Partial(harmonic: 0, attackAmplitude: attack, steadyAmplitude: steady, phase: phase, detuneCycles: cycles))
            if n >= 2 {  // the second string of the unison, a cycle per loop away
                partials.append(
                    Partial(harmonic: 0, attackAmplitude: 0.5 * attack, steadyAmplitude: 0.5 * steady, phase: -phase, detuneCycles: cycles + 1))
            }
        }
        return HarmonicTone(
            partials: partials, transients: [Transient(ratio: nil, amplitude: 0.25, decaySeconds: 0.012, noiseHz: 700, noiseQ: 0.8)],
            attackSeconds: 0.002, settleSeconds: 0.4, loopRepeats: 1, tailSeconds: 0.1)
    }

    /// Wooden bar (marimba, xylophone, vibraphone, celesta's hammer): a pure fundamental with its
    /// tuned 4th and 10th partials ringing briefly, an inharmonic knock and a mallet click.
    static let mallet = ToneFamily(folder: "Mallet", file: "mallet", roots: [60, 72, 84], loopSeconds: 0.2) { frequency, periods in
        let partials = [
            Partial(harmonic: 1, attackAmplitude: 1, steadyAmplitude: 1, phase: 0),
            Partial(harmonic: 4, attackAmplitude: 0.5, steadyAmplitude: 0.06, phase: 1),
            Partial(harmonic: 10, attackAmplitude: 0.2, steadyAmplitude: 0.01, phase: 2),
        ]
        return HarmonicTone(
            partials: partials,
            transients: [
                Transient(ratio: 2.76, amplitude: 0.25, decaySeconds: 0.025),
                Transient(ratio: nil, amplitude: 0.5, decaySeconds: 0.003, noiseHz: 3_000, noiseQ: 0.8),
            ], attackSeconds: 0.001, settleSeconds: 0.15, loopRepeats: 1, tailSeconds: 0.05)
    }

    /// Metal bar or bell (glockenspiel, music box, tubular bells): the free bar's inharmonic
    /// partials 1 : 2.76 : 5.40 : 8.93, the upper ones brighter in the strike.
    static let bell = ToneFamily(folder: "Bell", file: "bell", roots: [60, 72, 84], loopSeconds: 0.5) { frequency, periods in
        let modes: [(ratio: Double, steady: Double, attack: Double)] = [(1, 1, 1), (2.76, 0.35, 0.7), (5.40, 0.15, 0.5), (8.93, 0.06, 0.3)]
        let partials = modes.enumerated().compactMap { index, mode in
            mode.ratio * frequency < 18_000
                ? inharmonic(mode.ratio, periods: periods, steady: mode.steady, attack: mode.attack, phase: Double(index)) : nil
        }
        return HarmonicTone(
            partials: partials, transients: [Transient(ratio: nil, amplitude: 0.2, decaySeconds: 0.002, noiseHz: 6_000, noiseQ: 0.8)],
            attackSeconds: 0.0005, settleSeconds: 0.2, loopRepeats: 1, tailSeconds: 0.05)
    }

    /// Plucked string (harp, pizzicato, koto, sitar, banjo, harpsichord): the spectrum of a string
    /// plucked at 1/5 of its length, bright at the pluck and mellowing within 0.25 s.
    static let pluck = ToneFamily(folder: "Pluck", file: "pluck", roots: [48, 60, 72], loopSeconds: 0.2) { frequency, periods in
        let partials = harmonics(
            frequency, seed: 0x91_0C, steady: { n, hz in abs(sin(Double(n) * Double.pi / 5)) / Double(n * n) * lowPass(hz, 1_500) + 0.002 },
            attack: { n, _ in 1 + 0.8 * Double(n - 1) })
        return HarmonicTone(
            partials: partials, transients: [Transient(ratio: nil, amplitude: 0.15, decaySeconds: 0.004, noiseHz: 2_500, noiseQ: 1)],
            attackSeconds: 0.001, settleSeconds: 0.25, loopRepeats: 1, tailSeconds: 0.05)
    }

    /// Brass: a rich spectrum (n^−0.7) under a lip resonance around 1.2 kHz; the upper harmonics
    /// speak late (the attack is dark, then opens up), with a breath of noise at the start.
    static let brass = ToneFamily(folder: "Brass", file: "brass", roots: [48, 60, 72], loopSeconds: 0.25) { frequency, _ in
        let partials = harmonics(
            frequency, seed: 0xB2_A55,
            steady: { n, hz in pow(Double(n), -0.7) * (0.3 + resonance(hz, center: 1_200, width: 1_600)) * lowPass(hz, 4_000) },
            attack: { n, _ in n <= 2 ? 1.2 : 0.35 })
        return HarmonicTone(
            partials: partials, transients: [Transient(ratio: nil, amplitude: 0.08, decaySeconds: 0.03, noiseHz: 1_500, noiseQ: 0.8)],
            attackSeconds: 0.015, settleSeconds: 0.1, loopRepeats: 1, tailSeconds: 0.05)
    }

    /// Saxophone-like reed: every harmonic, formants near 500 Hz and 1.6 kHz, a breathy loop.
    static let reed = ToneFamily(folder: "Reed", file: "reed", roots: [48, 60, 72], loopSeconds: 0.3) { frequency, _ in
        let partials = harmonics(
            frequency, seed: 0x2EED,
            steady: { n, hz in
                (0.2 + resonance(hz, center: 500, width: 500) + 0.7 * resonance(hz, center: 1_600, width: 900)) / Double(n).squareRoot()
                    * lowPass(hz, 5_000)
            },
            attack: { n, _ in n <= 3 ? 1.1 : 0.6 })
        return HarmonicTone(
            partials: partials, loopNoise: .init(level: 0.02, centerHz: 2_500, q: 0.8, seed: 0x2EED_0001),
            attackSeconds: 0.02, settleSeconds: 0.08, loopRepeats: 1, tailSeconds: 0.05)
    }

    /// Clarinet: a cylindrical bore's odd harmonics (1/n), even ones only faint above 2 kHz.
    static let clarinet = ToneFamily(folder: "Clarinet", file: "clarinet", roots: [48, 60, 72], loopSeconds: 0.25) { frequency, _ in
        let partials = harmonics(
            frequency, seed: 0xC1A2,
            steady: { n, hz in (n % 2 == 1 ? 1.0 / Double(n) : (hz > 2_000 ? 0.15 / Double(n) : 0.01)) * lowPass(hz, 4_000) },
            attack: { n, _ in n == 1 ? 1.2 : 0.5 })
        return HarmonicTone(
            partials: partials, loopNoise: .init(level: 0.01, centerHz: 3_000, q: 0.8, seed: 0xC1A2_0001),
            attackSeconds: 0.02, settleSeconds: 0.08, loopRepeats: 1, tailSeconds: 0.05)
    }

    /// Flute: nearly a sine (weak 2nd and 3rd), a breath noise through the loop, and the chiff of
    /// the attack (noise and the octave overblowing for a moment).
    static let flute = ToneFamily(folder: "Flute", file: "flute", roots: [60, 72, 84], loopSeconds: 0.3) { frequency, _ in
        let levels = [1.0, 0.3, 0.12, 0.05, 0.03, 0.015]
        let partials = levels.enumerated().compactMap { index, level in
            Double(index + 1) * frequency < 16_000
                ? Partial(harmonic: index + 1, attackAmplitude: level * (index == 1 ? 2 : 1), steadyAmplitude: level, phase: Double(index)) : nil
        }
        return HarmonicTone(
            partials: partials, transients: [Transient(ratio: nil, amplitude: 0.2, decaySeconds: 0.03, noiseHz: 2_500, noiseQ: 0.8)],
            loopNoise: .init(level: 0.035, centerHz: 3_000, q: 0.6, seed: 0xF1_0007), attackSeconds: 0.04, settleSeconds: 0.12,
            loopRepeats: 1, tailSeconds: 0.05)
    }

    /// Sawtooth (synth leads, synth brass and strings, polysynth): 1/n, three oscillators a cycle
    /// per half second apart.
    static let saw = ToneFamily(folder: "Saw", file: "saw", roots: [48, 60, 72], loopSeconds: 0.5) { frequency, _ in
        let partials = ensemble(harmonics(frequency, maxHz: 16_000, seed: 0x5A3, steady: { n, _ in 1 / Double(n) }), spreads: [1], level: 0.5, seed: 0x5A4)
        return HarmonicTone(partials: partials, attackSeconds: 0.002, settleSeconds: 0.01, loopRepeats: 1, tailSeconds: 0.03)
    }

    /// Square (square lead, calliope, chiptune): odd harmonics 1/n.
    static let square = ToneFamily(folder: "Square", file: "square", roots: [48, 60, 72], loopSeconds: 0.2) { frequency, _ in
        let partials = harmonics(frequency, maxHz: 16_000, seed: 0x5C, only: { $0 % 2 == 1 }, steady: { n, _ in 1 / Double(n) })
        return HarmonicTone(partials: partials, attackSeconds: 0.002, settleSeconds: 0.01, loopRepeats: 1, tailSeconds: 0.03)
    }

    /// Warm pad: five detuned sawtooths rolled off above 1.2 kHz, beating slowly over a 1 s loop.
    static let pad = ToneFamily(folder: "Pad", file: "pad", roots: [48, 60, 72], loopSeconds: 1.0) { frequency, _ in
        let base = harmonics(frequency, maxHz: 10_000, seed: 0x9AD, steady: { n, hz in lowPass(hz, 1_200) / Double(n) })
        return HarmonicTone(
            partials: ensemble(base, spreads: [1, 2], level: 0.25, seed: 0x9AE), attackSeconds: 0.05, settleSeconds: 0.06,
            loopRepeats: 1, tailSeconds: 0.05)
    }

    /// Choir "aah": harmonics shaped by the vowel's formants (700, 1220, 2600 Hz), three voices a
    /// few cents apart and a breath in the loop.
    static let voice = ToneFamily(folder: "Voice", file: "voice", roots: [48, 60, 72], loopSeconds: 1.0) { frequency, _ in
        let base = harmonics(
            frequency, maxHz: 8_000, seed: 0x7015,
            steady: { n, hz in
                (resonance(hz, center: 700, width: 180) + 0.6 * resonance(hz, center: 1_220, width: 200)
                    + 0.25 * resonance(hz, center: 2_600, width: 250) + 0.02) / Double(n).squareRoot()
            })
        return HarmonicTone(
            partials: ensemble(base, spreads: [1], level: 0.45, seed: 0x7016),
            loopNoise: .init(level: 0.01, centerHz: 3_000, q: 0.7, seed: 0x7017), attackSeconds: 0.05, settleSeconds: 0.06, loopRepeats: 1,
            tailSeconds: 0.05)
    }

    /// Tuned membrane (timpani, taiko, melodic tom, synth drum): the kettle's near-harmonic modes
    /// 1 : 1.5 : 1.98 : 2.44, and the stick's thud.
    static let membrane = ToneFamily(folder: "Membrane", file: "membrane", roots: [36, 48, 60], loopSeconds: 0.5) { frequency, periods in
        let modes: [(Double, Double, Double)] = [(1, 1, 1), (1.5, 0.5, 0.9), (1.98, 0.3, 0.7), (2.44, 0.15, 0.6), (2.96, 0.08, 0.4)]
        let partials = modes.enumerated().map { index, mode in
            inharmonic(mode.0, periods: periods, steady: mode.1, attack: mode.2, phase: Double(index))
        }
        return HarmonicTone(
            partials: partials,
            transients: [Transient(ratio: nil, amplitude: 0.8, decaySeconds: 0.02, noiseHz: 3 * frequency + 200, noiseQ: 0.7)],
            attackSeconds: 0.001, settleSeconds: 0.2, loopRepeats: 1, tailSeconds: 0.05)
    }

    /// Broadband noise (seashore, applause, rain, helicopter, breath, gunshot: shaped by the
    /// program's filter and envelope): one second of band-passed noise that loops seamlessly.
    static let noise = ToneFamily(folder: "Noise", file: "noise", roots: [60], loopSeconds: 1.0) { _, _ in
        HarmonicTone(
            partials: [], loopNoise: .init(level: 0.3, centerHz: 1_500, q: 0.25, seed: 0x9015E), attackSeconds: 0.002, settleSeconds: 0.01,
            loopRepeats: 1, tailSeconds: 0.05)
    }

    /// Overdriven guitar: a guitar-like spectrum through a tanh drive (memoryless, so the loop
    /// stays exact), its edge rounded off above 4 kHz before the drive.
    static let overdrive = ToneFamily(
        folder: "Overdrive", file: "overdrive", roots: [40, 52, 64], loopSeconds: 0.25,
        tone: { frequency, _ in
            let partials = harmonics(
                frequency, maxHz: 6_000, seed: 0x0D, steady: { n, hz in lowPass(hz, 2_000) / Double(n) }, attack: { n, _ in n <= 2 ? 1 : 1.5 })
            return HarmonicTone(partials: partials, attackSeconds: 0.002, settleSeconds: 0.1, loopRepeats: 1, tailSeconds: 0.05)
        }, shaper: { tanh(4 * $0) })

    static let all = [piano, mallet, bell, pluck, brass, reed, clarinet, flute, saw, square, pad, voice, membrane, noise, overdrive]
}
