import Glibc

/// The pieces the GS kits play instead of the standard kit's: room and power kicks, snares and
/// toms; electronic and TR-808 sounds synthesized the way those machines make them; a jazz kick
/// and snare; brushes; the orchestra's concert bass drum, snare and timpani.
enum KitPieces {
    typealias Piece = DrumKit.Piece
    typealias Mode = PercussionHit.Mode
    typealias Noise = PercussionHit.Noise
    static func hit(_ file: String, root: Int, _ hit: PercussionHit) -> Piece { DrumPieces.hit(file, root: root, hit) }

    static func roomy(_ file: String, root: Int, _ dry: @escaping @Sendable (DrumVoices, inout SeededRandom) -> [Double]) -> Piece {
        Piece(file: file, rootKey: root) { voices, random in
            DrumPieces.roomy(dry(voices, &random), sampleRate: voices.sampleRate, random: &random)
        }
    }

    static func metal808(_ file: String, root: Int, decay: Double, seconds: Double, bandHz: Double) -> Piece {
        Piece(file: file, rootKey: root) { voices, random in
            DrumPieces.metal808(decay: decay, seconds: seconds, bandHz: bandHz, random: &random, sampleRate: voices.sampleRate)
        }
    }

    static let all: [Piece] = roomAndPower + electronic + tr808 + jazzAndBrush + orchestra

    static let roomAndPower: [Piece] = [
        // Room (GS 8) and Power (GS 16): the standard pieces in a small room; a punchier kick and snare.
        roomy("kick-room", root: 36) { voices, _ in voices.kick() },
        roomy("snare-room", root: 38) { voices, random in voices.snare(random: &random) },
        roomy("tom-room", root: 47) { voices, random in
            DrumPieces.membrane(hz: 131, decay: 0.45, seconds: 0.75, click: 0.25).render(sampleRate: voices.sampleRate, random: &random)
        },
        hit("kick-power", root: 36, PercussionHit(
            seconds: 0.7, modes: [Mode(hz: 56, decaySeconds: 0.28, glideFrom: 2.6, glideSeconds: 0.02)],
            noises: [Noise(level: 0.5, decaySeconds: 0.006, centerHz: 3_000, q: 0.8)], drive: 1.5)),
        roomy("snare-power", root: 38) { voices, random in
            voices.snare(
                random: &random, seconds: 0.3, toneHz: 175, toneLevel: 0.7, toneDecaySeconds: 0.06, noiseHz: 2_500, noiseQ: 0.5,
                noiseDecaySeconds: 0.1)
        },
    ]

    static let electronic: [Piece] = [
        // Electronic (GS 24): a driven sine kick, a gated snare, pitch-dropping "Simmons" toms.
        hit("kick-electronic", root: 36, PercussionHit(
            seconds: 0.8, modes: [Mode(hz: 52, decaySeconds: 0.35, glideFrom: 3, glideSeconds: 0.03)], drive: 2.5)),
        hit("snare-electronic", root: 38, PercussionHit(
            seconds: 0.3, modes: [Mode(hz: 200, level: 0.6, decaySeconds: 0.06)],
            noises: [Noise(decaySeconds: 0.02, centerHz: 4_000, q: 0.5, holdSeconds: 0.12)])),
        hit("tom-electronic", root: 47, PercussionHit(
            seconds: 0.7, modes: [Mode(hz: 131, decaySeconds: 0.3, glideFrom: 1.6, glideSeconds: 0.12)],
            noises: [Noise(level: 0.3, decaySeconds: 0.01, centerHz: 2_000, q: 0.8)])),
    ]

    /// The 808 clap: three quick bursts, then a burst train that dies away (its "reverb").
    static let clap808: [(time: Double, gain: Double)] = [(0, 1), (0.011, 1), (0.022, 1), (0.033, 0.2)]
        + (0..<20).map { (index: Int) -> (time: Double, gain: Double) in
            let i = Double(index)
            return (0.035 + 0.005 * i, 0.7 * exp(-i * 0.005 / 0.06))
        }

    static let tr808: [Piece] = [
        // TR-808 (GS 25): a long sine boom, two-tone snare, its clap, six-square-wave metal, cowbell.
        hit("kick-808", root: 36, PercussionHit(
            seconds: 1.2, modes: [Mode(hz: 49, decaySeconds: 0.45, glideFrom: 2.2, glideSeconds: 0.015)],
            noises: [Noise(level: 0.1, decaySeconds: 0.002, centerHz: 1_500, q: 0.8)])),
        hit("rim-808", root: 37, PercussionHit(
            seconds: 0.08, modes: [Mode(hz: 1_700, decaySeconds: 0.01), Mode(hz: 470, level: 0.6, decaySeconds: 0.012)])),
        hit("snare-808", root: 38, PercussionHit(
            seconds: 0.35, modes: [Mode(hz: 180, decaySeconds: 0.07), Mode(hz: 330, level: 0.6, decaySeconds: 0.045)],
            noises: [Noise(level: 0.8, decaySeconds: 0.1, highPassHz: 2_000)])),
        hit("clap-808", root: 39, PercussionHit(
            seconds: 0.45, noises: [Noise(decaySeconds: 0.006, centerHz: 1_100, q: 1.5)],
            strikes: clap808)),
        hit("tom-808", root: 47, PercussionHit(
            seconds: 0.6, modes: [Mode(hz: 150, decaySeconds: 0.22, glideFrom: 1.12, glideSeconds: 0.05)],
            noises: [Noise(level: 0.05, decaySeconds: 0.003, centerHz: 1_500, q: 0.8)])),
        metal808("hihat-808-closed", root: 42, decay: 0.035, seconds: 0.15, bandHz: 10_000),
        metal808("hihat-808-open", root: 46, decay: 0.3, seconds: 0.8, bandHz: 10_000),
        metal808("cymbal-808", root: 49, decay: 0.9, seconds: 1.6, bandHz: 8_000),
        hit("cowbell-808", root: 56, PercussionHit(seconds: 0.5, modes: cowbell808)),
        hit("conga-808", root: 63, PercussionHit(seconds: 0.35, modes: [Mode(hz: 370, decaySeconds: 0.1, glideFrom: 1.03, glideSeconds: 0.02)])),
        hit("maracas-808", root: 70, PercussionHit(seconds: 0.1, noises: [Noise(decaySeconds: 0.025, highPassHz: 8_000)])),
        hit("claves-808", root: 75, PercussionHit(seconds: 0.12, modes: [Mode(hz: 2_500, decaySeconds: 0.03)])),
    ]

    /// Two band-limited squares (540 and 800 Hz), their harmonics dying fast.
    static let cowbell808: [Mode] = [540.0, 800.0].flatMap { (hz: Double) -> [Mode] in
        [1, 3, 5, 7].map { (k: Int) -> Mode in Mode(hz: hz * Double(k), level: 1 / Double(k), decaySeconds: k == 1 ? 0.16 : 0.04) }
    }

    static let jazzAndBrush: [Piece] = [
        // Jazz (GS 32) and Brush (GS 40): a tuned, resonant kick and a crisp snare; brushes.
        hit("kick-jazz", root: 36, DrumPieces.membrane(hz: 62, decay: 0.35, seconds: 0.9, glide: 1.15, click: 0.15, clickHz: 1_500)),
        Piece(file: "snare-jazz", rootKey: 38) { voices, random in
            voices.snare(
                random: &random, seconds: 0.35, toneHz: 220, toneLevel: 0.6, toneDecaySeconds: 0.06, noiseHz: 4_500, noiseQ: 0.8,
                noiseDecaySeconds: 0.1)
        },
        hit("brush-tap", root: 38, PercussionHit(seconds: 0.3, noises: [Noise(decaySeconds: 0.07, centerHz: 3_000, q: 0.5, attackSeconds: 0.008)])),
        hit("brush-slap", root: 40, PercussionHit(
            seconds: 0.4, modes: [Mode(hz: 200, level: 0.2, decaySeconds: 0.05)],
            noises: [Noise(decaySeconds: 0.13, centerHz: 2_500, q: 0.5, attackSeconds: 0.003)])),
        hit("brush-swirl", root: 39, PercussionHit(
            seconds: 1.0, noises: [Noise(decaySeconds: 0.2, centerHz: 3_000, q: 0.5, attackSeconds: 0.15, holdSeconds: 0.4)])),
    ]

    static let timpaniModes: [Mode] = [(1.0, 1.0), (1.5, 0.5), (1.98, 0.3), (2.44, 0.15)].map { (ratio: Double, level: Double) -> Mode in
        Mode(hz: 130.8 * ratio, level: level, decaySeconds: 0.8 / ratio, glideFrom: 1.02, glideSeconds: 0.05)
    }

    static let orchestra: [Piece] = [
        // Orchestra (GS 48): concert bass drum and snare, timpani tuned by the key (41–53 = F2–F3).
        hit("bass-drum-concert", root: 36, DrumPieces.membrane(hz: 48, decay: 0.8, seconds: 1.8, glide: 1.1, click: 0.1, clickHz: 500)),
        Piece(file: "snare-concert", rootKey: 38) { voices, random in
            voices.snare(
                random: &random, seconds: 0.35, toneHz: 250, toneLevel: 0.4, toneDecaySeconds: 0.05, noiseHz: 5_000, noiseQ: 0.6,
                noiseDecaySeconds: 0.09)
        },
        hit("timpani", root: 48, PercussionHit(
            seconds: 1.8, modes: timpaniModes, noises: [Noise(level: 0.3, decaySeconds: 0.015, centerHz: 600, q: 0.8)])),
    ]
}
