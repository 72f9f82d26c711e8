import AudioFiles
import Glibc

/// The General MIDI drum kits: one 48 kHz 16-bit mono one-shot WAV per kit piece under
/// `Sounds/Drums/`, the standard kit's key map (GM keys 35–81 and the GS extensions 27–34 and
/// 82–87) and the GS kits (bank 128 programs 8, 16, 24, 25, 32, 40, 48), each the standard kit
/// with the pieces that make it different. A few pieces play several keys transposed (the
/// second crash and ride; the room, electronic and 808 toms; 808 congas; timpani).
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

    /// The rate a piece is stored at: drums whose sound lies below 10 kHz (kicks, toms, hand drums,
    /// timpani) at 24 kHz, bells and small metal at 32 kHz, cymbals, hats, snares and the rest at
    /// 48 kHz — a third of the size where the top octave holds nothing.
    static func storedRate(_ file: String) -> Double {
        let low = ["kick", "tom", "surdo", "conga", "bongo", "bass-drum", "timpani"]
        let metal = [
            "china", "splash", "triangle", "belltree", "jingle", "vibraslap", "metronome-bell", "agogo", "timbale", "cymbal-808", "brush",
            "whistle", "cuica", "woodblock",
        ]
        if low.contains(where: file.hasPrefix) { return 24_000 }
        return metal.contains(where: file.hasPrefix) ? 32_000 : sampleRate
    }

    /// A kit: its preset's name, its GS program number in bank 128, and its keys.
    struct Kit {
        var name: String
        var program: Int
        var keys: [Key]
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
        metal("crash", rootKey: 49, seconds: 2.0, decaySeconds: 0.7, partials: 60, band: 3_000...13_000, noiseLevel: 0.7,
              noiseCutoffHz: 4_000),
        metal("ride", rootKey: 51, seconds: 1.6, decaySeconds: 0.6, partials: 40, band: 2_500...9_000, noiseLevel: 0.25,
              noiseCutoffHz: 6_000),
        metal("ride-bell", rootKey: 53, seconds: 1.2, decaySeconds: 0.45, partials: 8, band: 700...3_500, noiseLevel: 0.05,
              noiseCutoffHz: 6_000),
        metal("tambourine", rootKey: 54, seconds: 0.3, decaySeconds: 0.1, partials: 12, band: 6_000...11_000, noiseLevel: 0.6,
              noiseCutoffHz: 8_000),
        Piece(file: "cowbell", rootKey: 56) { voices, _ in voices.cowbell() },
    ] + DrumPieces.standard + KitPieces.all

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

    /// The standard kit (GS 0): key → piece, played at its own pitch unless a root key is given.
    static let standard: [Key] = {
        var map: [Int: (file: String, root: Int)] = [:]
        for piece in pieces where (27...87).contains(piece.rootKey) && !kitOnly.contains(piece.file) {
            map[piece.rootKey] = (piece.file, piece.rootKey)
        }
        map[57] = ("crash", 55)  // crash 2: two semitones up
        map[59] = ("ride", 60)  // ride 2: a semitone down
        return map.keys.sorted().map { key in Key(key: key, file: map[key]!.file, rootKey: map[key]!.root, gainDecibels: DrumLevels.gain(map[key]!.file)) }
    }()

    /// Pieces only the GS kits play.
    static var kitOnly: Set<String> { Set(KitPieces.all.map(\.file)) }

    /// Root keys that play one tom sample (stored at `tomRoot` ≈ 131 Hz) at the standard toms' pitches.
    static func transposedToms(_ file: String, tomRoot: Int = 47) -> [Int: (String, Int)] {
        var map: [Int: (String, Int)] = [:]
        for tom in DrumPieces.tomHz {
            map[tom.key] = (file, tomRoot - Int((12 * log2(tom.hz / 131)).rounded()))
        }
        return map
    }

    static func kit(_ name: String, program: Int, _ changes: [Int: (String, Int)]) -> Kit {
        var keys = Dictionary(uniqueKeysWithValues: standard.map { ($0.key, $0) })
        for (key, piece) in changes { keys[key] = Key(key: key, file: piece.0, rootKey: piece.1, gainDecibels: DrumLevels.gain(piece.0)) }
        return Kit(name: name, program: program, keys: keys.keys.sorted().map { keys[$0]! })
    }

    static let kits: [Kit] = [
        Kit(name: "Drums", program: 0, keys: standard),
        kit("Drums-Room", program: 8, [35: ("kick-room", 35), 36: ("kick-room", 36), 38: ("snare-room", 38), 40: ("snare-room", 40)]
            .merging(transposedToms("tom-room")) { a, _ in a }),
        kit("Drums-Power", program: 16, [35: ("kick-power", 35), 36: ("kick-power", 36), 38: ("snare-power", 38), 40: ("snare-power", 40)]
            .merging(transposedToms("tom-room")) { a, _ in a }),
        kit("Drums-Electronic", program: 24,
            [35: ("kick-electronic", 35), 36: ("kick-electronic", 36), 38: ("snare-electronic", 38), 40: ("snare-electronic", 40)]
            .merging(transposedToms("tom-electronic")) { a, _ in a }),
        kit("Drums-808", program: 25, [
            35: ("kick-808", 35), 36: ("kick-808", 36), 37: ("rim-808", 37), 38: ("snare-808", 38), 39: ("clap-808", 39), 40: ("snare-808", 40),
            42: ("hihat-808-closed", 42), 44: ("hihat-808-closed", 44), 46: ("hihat-808-open", 46), 49: ("cymbal-808", 49),
            57: ("cymbal-808", 57), 56: ("cowbell-808", 56), 62: ("conga-808", 60), 63: ("conga-808", 63), 64: ("conga-808", 69),
            70: ("maracas-808", 70), 75: ("claves-808", 75),
        ].merging(transposedToms("tom-808")) { a, _ in a }),
        kit("Drums-Jazz", program: 32, [35: ("kick-jazz", 35), 36: ("kick-jazz", 36), 38: ("snare-jazz", 38), 40: ("snare-jazz", 40)]),
        kit("Drums-Brush", program: 40, [
            35: ("kick-jazz", 35), 36: ("kick-jazz", 36), 38: ("brush-tap", 38), 39: ("brush-swirl", 39), 40: ("brush-slap", 40),
        ]),
        kit("Drums-Orchestra", program: 48, [
            27: ("hihat-closed", 27), 28: ("hihat-pedal", 28), 29: ("hihat-open", 29), 30: ("ride", 30), 35: ("bass-drum-concert", 35),
            36: ("bass-drum-concert", 36), 38: ("snare-concert", 38), 40: ("snare-concert", 40), 59: ("crash", 59),
        ].merging((41...53).map { ($0, ("timpani", 48)) }) { a, _ in a }),
    ]

    /// Writes every piece into `Sounds/Drums/` (directory `sounds`); returns the files written.
    static func write(to sounds: String, seed: UInt64) throws(AudioFileError) -> [String] {
        var random = SeededRandom(seed: seed)
        var written: [String] = []
        for piece in pieces {
            let rate = storedRate(piece.file)
            let sound = piece.render(DrumVoices(sampleRate: rate), &random)
            let path = sounds + "/Drums/\(piece.file).wav"
            try WAVFileWriter.write(
                path: path, channels: [LoopBuffer.normalized(sound, peak: 0.9)], sampleRate: Int(rate), encoding: .pcm16,
                rootKey: piece.rootKey)
            written.append(path)
        }
        return written
    }
}
