import AudioFiles
import Glibc
import MIDI

/// The melodic General MIDI sounds: bass, nylon guitar, strings and organ, each a few zones of
/// 44.1 kHz 16-bit mono WAVs with root key (and, where the sound sustains, an exactly periodic
/// loop) in the `smpl` chunk. Every file is a pure function of its parameters and seed.
enum GMInstruments {
    static let sampleRate = 44_100.0

    /// One written sample: where it lives under `Sounds/` and the key it plays unshifted at.
    struct Sample {
        var file: String
        var rootKey: Int
    }

    /// `Bass/bass-<root>.wav`, roots G1/G2/G3: a finger-plucked electric bass — a bright, thumpy
    /// attack whose upper harmonics die away within 0.4 s into a round, looped sustain.
    static func writeBass(to sounds: String) throws(AudioFileError) -> [Sample] {
        let steady = [1.0, 0.55, 0.32, 0.2, 0.12, 0.08, 0.05, 0.035, 0.025, 0.018, 0.012, 0.008]
        var random = SeededRandom(seed: 0xBA55)
        let partials = steady.enumerated().map { index, level in
            HarmonicTone.Partial(
                harmonic: index + 1, attackAmplitude: level * (1.2 + 0.3 * Double(index)), steadyAmplitude: level,
                phase: 2 * Double.pi * random.bipolar())
        }
        return try [31, 43, 55].map { root throws(AudioFileError) in
            let tone = HarmonicTone(partials: partials, attackSeconds: 0.003, settleSeconds: 0.4, loopRepeats: 1, tailSeconds: 0.08)
            return try writeLooped(tone, directory: sounds, file: "Bass/bass-\(root).wav", root: root, loopSeconds: 0.25)
        }
    }

    /// `Organ/organ-<root>.wav`, roots C3/C4/C5: drawbar registration 16′ 8′ 5⅓′ 4′ 2⅔′ 2′ 1⅗′ 1⅓′ 1′
    /// (harmonics 1…16 of the sub-octave) with a short key click, then an exactly periodic loop.
    static func writeOrgan(to sounds: String) throws(AudioFileError) -> [Sample] {
        let drawbars: [(harmonic: Int, level: Double)] = [
            (1, 0.35), (2, 1.0), (3, 0.3), (4, 0.7), (6, 0.45), (8, 0.35), (10, 0.12), (12, 0.18), (16, 0.12),
        ]
        let partials = drawbars.map { bar in
            // The click: upper drawbars speak louder for the first few milliseconds.
            HarmonicTone.Partial(
                harmonic: bar.harmonic, attackAmplitude: bar.level * (bar.harmonic >= 8 ? 2.5 : 1), steadyAmplitude: bar.level,
                phase: 0.7 * Double(bar.harmonic))
        }
        return try [48, 60, 72].map { root throws(AudioFileError) in
            let tone = HarmonicTone(partials: partials, attackSeconds: 0.004, settleSeconds: 0.04, loopRepeats: 1, tailSeconds: 0.05)
            // The loop's fundamental is the 16′ sub-octave: one period holds two of the played pitch.
            return try writeLooped(
                tone, directory: sounds, file: "Organ/organ-\(root).wav", root: root, loopSeconds: 0.2, fundamentalRatio: 0.5)
        }
    }

    /// `Strings/strings-<root>.wav`, roots C3/C4/C5: a string section — a bowed, sawtooth-like
    /// spectrum rolled off above ~3 kHz, three players per partial (one in tune, two detuned by whole
    /// cycles per 1 s loop with mirrored phases, so the section shimmers but the pitch stays exact).
    static func writeStrings(to sounds: String) throws(AudioFileError) -> [Sample] {
        var random = SeededRandom(seed: 0x5791_6C5)
        return try [48, 60, 72].map { root throws(AudioFileError) in
            let frequency = noteFrequency(Double(root))
            let loop = PeriodicLoop.lasting(seconds: 1.0, frequency: frequency, sampleRate: sampleRate)
            // About 7 cents of detune: one extra cycle per loop at C3, two at C5.
            let spread = max(1, Int((Double(loop.periods) * (pow(2, 7.0 / 1200) - 1)).rounded()))
            var partials: [HarmonicTone.Partial] = []
            for harmonic in 1...40 where Double(harmonic) * frequency < 9_000 {
                let rolloff = 1 / (1 + pow(Double(harmonic) * frequency / 3_000, 2))
                let level = rolloff / Double(harmonic)
                let phase = 2 * Double.pi * random.bipolar(), offset = Double.pi * random.bipolar()
                partials.append(.init(harmonic: harmonic, attackAmplitude: level, steadyAmplitude: level, phase: phase))
                for sign in [-1, 1] {
                    partials.append(
                        .init(
                            harmonic: harmonic, attackAmplitude: 0.3 * level, steadyAmplitude: 0.3 * level,
                            phase: phase + Double(sign) * offset, detuneCycles: sign * harmonic * spread))
                }
            }
            let tone = HarmonicTone(partials: partials, attackSeconds: 0.08, settleSeconds: 0.1, loopRepeats: 1, tailSeconds: 0.1)
            return try writeLooped(tone, directory: sounds, file: "Strings/strings-\(root).wav", root: root, loop: loop)
        }
    }

    /// `Guitar/guitar-<root>.wav`, roots A2/A3/A4: a nylon-string pluck (Karplus–Strong, darkish
    /// excitation), ringing and decaying to silence; no loop — it plays once like the real string.
    static func writeGuitar(to sounds: String) throws(AudioFileError) -> [Sample] {
        var random = SeededRandom(seed: 0x6_17A5_0002)
        let string = PluckedString(sampleRate: sampleRate)
        let notes: [(root: Int, seconds: Double, ring: Double)] = [(45, 2.0, 6), (57, 1.7, 5), (69, 1.4, 4)]
        return try notes.map { note throws(AudioFileError) in
            let sound = string.pluck(
                frequency: noteFrequency(Double(note.root)), seconds: note.seconds, brightness: 0.3, decaySeconds: note.ring,
                random: &random)
            // The noise burst of the pluck peaks far above the ringing tone; a soft saturation
            // (tanh, ×3 drive) rounds off those first milliseconds so the note is as loud as its peers.
            let rounded = LoopBuffer.normalized(sound, peak: 1).map { tanh(3 * Double($0)) }
            let file = "Guitar/guitar-\(note.root).wav"
            try WAVFileWriter.write(
                path: sounds + "/" + file, channels: [LoopBuffer.normalized(rounded, peak: 0.9)], sampleRate: Int(sampleRate),
                encoding: .pcm16, rootKey: note.root)
            return Sample(file: file, rootKey: note.root)
        }
    }

    /// Renders `tone` with a sustain loop of about `loopSeconds` at the root's pitch (× `fundamentalRatio`
    /// for tones whose period spans several of the played pitch's) and writes it with its `smpl` chunk.
    static func writeLooped(
        _ tone: HarmonicTone, directory: String, file: String, root: Int, loopSeconds: Double, fundamentalRatio: Double = 1
    ) throws(AudioFileError) -> Sample {
        let frequency = noteFrequency(Double(root)) * fundamentalRatio
        guard let loop = PeriodicLoop.fitting(frequency: frequency, sampleRate: sampleRate) else {
            throw AudioFileError(path: directory + "/" + file, reason: "no periodic loop fits note \(root)")
        }
        var repeated = tone
        repeated.loopRepeats = SampleInstruments.repeats(loop, seconds: loopSeconds)
        return try writeLooped(repeated, directory: directory, file: file, root: root, loop: loop)
    }

    static func writeLooped(
        _ tone: HarmonicTone, directory: String, file: String, root: Int, loop: PeriodicLoop
    ) throws(AudioFileError) -> Sample {
        try SampleInstruments.writeLoopedWAV(
            tone.render(loop: loop, peak: 0.9), path: directory + "/" + file, sampleRate: Int(sampleRate), rootKey: root)
        return Sample(file: file, rootKey: root)
    }
}
