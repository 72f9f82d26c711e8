import AudioFiles

/// The General MIDI drum kit: one 48 kHz 16-bit mono one-shot WAV per kit piece under
/// `Sounds/Drums/`, and which GM key plays which piece. Toms share one sample, transposed by the
/// zone's root key; the second crash and ride are the first ones retuned the same way.
enum DrumKit {
    static let sampleRate = 48_000.0

    /// A GM percussion key: the piece's sample, the root key its zone plays it from (≠ key:
    /// transposed), and its level in the kit.
    struct Key {
        var key: Int
        var file: String
        var rootKey: Int
        var gainDecibels: Double
    }

    /// A sample: its file name, the key at which it is stored untransposed (`smpl` root key), and
    /// how it is made.
    struct Piece: Sendable {
        var file: String
        var rootKey: Int
        var render: @Sendable (DrumVoices, inout SeededRandom) -> [Double]
    }

    static let pieces: [Piece] = [
        Piece(file: "kick-deep", rootKey: 35) { voices, _ in
            voices.kick(startHz: 120, endHz: 42, sweepSeconds: 0.04, decaySeconds: 0.22, seconds: 0.6)
        },
        Piece(file: "kick", rootKey: 36) { voices, _ in voices.kick() },
        Piece(file: "side-stick", rootKey: 37) { voices, random in
            voices.snare(
                random: &random, seconds: 0.08, toneHz: 1_650, toneLevel: 0.8, toneDecaySeconds: 0.012, noiseHz: 2_500, noiseQ: 2,
                noiseDecaySeconds: 0.01)
        },
        Piece(file: "snare", rootKey: 38) { voices, random in voices.snare(random: &random) },
        Piece(file: "clap", rootKey: 39) { voices, random in voices.clap(random: &random) },
        Piece(file: "snare-electric", rootKey: 40) { voices, random in
            voices.snare(
                random: &random, seconds: 0.22, toneHz: 230, toneLevel: 0.6, toneDecaySeconds: 0.03, noiseHz: 5_000, noiseQ: 0.6,
                noiseDecaySeconds: 0.05)
        },
        Piece(file: "hihat-closed", rootKey: 42) { voices, random in voices.hat(random: &random, seconds: 0.1, decaySeconds: 0.03) },
        Piece(file: "hihat-pedal", rootKey: 44) { voices, random in
            voices.hat(random: &random, seconds: 0.12, decaySeconds: 0.018, cutoffHz: 5_500, attackFrames: 48)
        },
        Piece(file: "hihat-open", rootKey: 46) { voices, random in voices.hat(random: &random, seconds: 0.7, decaySeconds: 0.22) },
        Piece(file: "tom", rootKey: 47) { voices, _ in
            voices.kick(startHz: 200, endHz: 118, sweepSeconds: 0.06, decaySeconds: 0.2, seconds: 0.6)
        },
        metal("crash", rootKey: 49, seconds: 2.0, decaySeconds: 0.7, partials: 60, band: 3_000...13_000, noiseLevel: 0.7,
              noiseCutoffHz: 4_000),
        metal("ride", rootKey: 51, seconds: 1.6, decaySeconds: 0.6, partials: 40, band: 2_500...9_000, noiseLevel: 0.25,
              noiseCutoffHz: 6_000),
        metal("ride-bell", rootKey: 53, seconds: 1.2, decaySeconds: 0.45, partials: 8, band: 700...3_500, noiseLevel: 0.05,
              noiseCutoffHz: 6_000),
        metal("tambourine", rootKey: 54, seconds: 0.3, decaySeconds: 0.1, partials: 12, band: 6_000...11_000, noiseLevel: 0.6,
              noiseCutoffHz: 8_000),
        Piece(file: "cowbell", rootKey: 56) { voices, _ in voices.cowbell() },
    ]

    /// A piece made by `DrumVoices.metal`.
    static func metal(
        _ file: String, rootKey: Int, seconds: Double, decaySeconds: Double, partials: Int, band: ClosedRange<Double>,
        noiseLevel: Double, noiseCutoffHz: Double
    ) -> Piece {
        Piece(file: file, rootKey: rootKey) { voices, random in
            voices.metal(
                random: &random, seconds: seconds, decaySeconds: decaySeconds, partials: partials, band: band,
                noiseLevel: noiseLevel, noiseCutoffHz: noiseCutoffHz)
        }
    }

    static let keys: [Key] = [
        Key(key: 35, file: "kick-deep", rootKey: 35, gainDecibels: 0),
        Key(key: 36, file: "kick", rootKey: 36, gainDecibels: 0),
        Key(key: 37, file: "side-stick", rootKey: 37, gainDecibels: -6),
        Key(key: 38, file: "snare", rootKey: 38, gainDecibels: -2),
        Key(key: 39, file: "clap", rootKey: 39, gainDecibels: -4),
        Key(key: 40, file: "snare-electric", rootKey: 40, gainDecibels: -2),
        Key(key: 41, file: "tom", rootKey: 47, gainDecibels: -2),  // low floor tom, 6 semitones under the sample
        Key(key: 42, file: "hihat-closed", rootKey: 42, gainDecibels: -9),
        Key(key: 43, file: "tom", rootKey: 47, gainDecibels: -2),
        Key(key: 44, file: "hihat-pedal", rootKey: 44, gainDecibels: -10),
        Key(key: 45, file: "tom", rootKey: 47, gainDecibels: -2),
        Key(key: 46, file: "hihat-open", rootKey: 46, gainDecibels: -9),
        Key(key: 47, file: "tom", rootKey: 47, gainDecibels: -2),
        Key(key: 48, file: "tom", rootKey: 47, gainDecibels: -2),
        Key(key: 49, file: "crash", rootKey: 49, gainDecibels: -8),
        Key(key: 50, file: "tom", rootKey: 47, gainDecibels: -2),
        Key(key: 51, file: "ride", rootKey: 51, gainDecibels: -10),
        Key(key: 53, file: "ride-bell", rootKey: 53, gainDecibels: -10),
        Key(key: 54, file: "tambourine", rootKey: 54, gainDecibels: -10),
        Key(key: 56, file: "cowbell", rootKey: 56, gainDecibels: -10),
        Key(key: 57, file: "crash", rootKey: 55, gainDecibels: -8),  // crash 2: two semitones up
        Key(key: 59, file: "ride", rootKey: 60, gainDecibels: -10),  // ride 2: a semitone down
    ]

    /// Writes every piece into `Sounds/Drums/` (directory `sounds`); returns the files written.
    static func write(to sounds: String, seed: UInt64) throws(AudioFileError) -> [String] {
        var random = SeededRandom(seed: seed)
        let voices = DrumVoices(sampleRate: sampleRate)
        var written: [String] = []
        for piece in pieces {
            let sound = piece.render(voices, &random)
            let path = sounds + "/Drums/\(piece.file).wav"
            try WAVFileWriter.write(
                path: path, channels: [LoopBuffer.normalized(sound, peak: 0.9)], sampleRate: Int(sampleRate), encoding: .pcm16,
                rootKey: piece.rootKey)
            written.append(path)
        }
        return written
    }
}
