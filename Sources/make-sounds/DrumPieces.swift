import Glibc

/// The kit pieces beyond the original fifteen (`DrumKit.pieces`): the whole General MIDI
/// percussion map (keys 35–81) and the GS extensions (27–34, 82–87), and the pieces the GS kits
/// replace (room, power, electronic, TR-808, jazz, brush, orchestra).
enum DrumPieces {
    typealias Piece = DrumKit.Piece
    typealias Mode = PercussionHit.Mode
    typealias Noise = PercussionHit.Noise

    static func hit(_ file: String, root: Int, _ hit: PercussionHit) -> Piece {
        Piece(file: file, rootKey: root) { voices, random in hit.render(sampleRate: voices.sampleRate, random: &random) }
    }

    /// A drum head: circular-membrane modes 1 : 1.59 : 2.14 : 2.30 : 2.65 at `hz`, the pitch
    /// dropping from `glide` × as the head settles, and the stick's click.
    static func membrane(
        hz: Double, decay: Double, seconds: Double, glide: Double = 1.2, click: Double = 0.3, clickHz: Double = 2_500,
        overtones: Double = 1
    ) -> PercussionHit {
        let modes: [(Double, Double, Double)] = [(1, 1, 1), (1.59, 0.45, 0.45), (2.14, 0.3, 0.3), (2.30, 0.22, 0.25), (2.65, 0.12, 0.2)]
        return PercussionHit(
            seconds: seconds,
            modes: modes.map { ratio, level, decayRatio in
                Mode(hz: hz * ratio, level: ratio == 1 ? level : level * overtones, decaySeconds: decay * decayRatio, glideFrom: glide, glideSeconds: 0.04)
            },
            noises: [Noise(level: click, decaySeconds: 0.012, centerHz: clickHz, q: 0.8)])
    }

    /// A struck metal or wooden bar or bell: modes at `ratios` × `hz`, upper ones fading faster.
    static func bar(hz: Double, ratios: [Double], levels: [Double], decay: Double, seconds: Double, click: Double = 0.2) -> PercussionHit {
        PercussionHit(
            seconds: seconds,
            modes: zip(ratios, levels).map { ratio, level in Mode(hz: hz * ratio, level: level, decaySeconds: decay / ratio.squareRoot()) },
            noises: [Noise(level: click, decaySeconds: 0.003, centerHz: min(4 * hz, 9_000), q: 1)])
    }

    /// Six square waves at the TR-808's metal frequencies, band-limited: its hats and cymbal.
    static func metal808(decay: Double, seconds: Double, bandHz: Double, random: inout SeededRandom, sampleRate: Double) -> [Double] {
        let frequencies = [205.3, 304.4, 369.6, 522.7, 540.0, 800.0]
        let length = Int(seconds * sampleRate)
        var band = Biquad.bandPass(centerHz: bandHz, q: 0.9, sampleRate: sampleRate)
        var high = Biquad.highPass(cutoffHz: 6_000, q: 0.7, sampleRate: sampleRate)
        return (0..<length).map { n in
            let t = Double(n) / sampleRate
            var square = 0.0
            for f in frequencies {
                for k in stride(from: 1, through: 39, by: 2) where Double(k) * f < 20_000 {
                    square += sin(2 * Double.pi * Double(k) * f * t) / Double(k)
                }
            }
            let shaped = high.process(band.process(square + 0.3 * random.bipolar()))
            return shaped * exp(-t / decay) * attack(n, frames: 8) * fadeOut(n, length: length, fadeFrames: length / 10)
        }
    }

    /// A small room: a noise tail that follows the hit's envelope (peak-held, 80 ms release),
    /// band-limited around 1.5 kHz, about 12 dB under the direct sound, ringing 0.3 s past it.
    static func roomy(_ dry: [Double], sampleRate: Double, random: inout SeededRandom) -> [Double] {
        var wet = dry + [Double](repeating: 0, count: Int(0.3 * sampleRate))
        var band = Biquad.bandPass(centerHz: 1_500, q: 0.5, sampleRate: sampleRate)
        let release = exp(-1 / (0.08 * sampleRate))
        var follower = 0.0
        for n in wet.indices {
            follower = max(n < dry.count ? abs(dry[n]) : 0, follower * release)
            wet[n] += 0.6 * follower * band.process(random.bipolar())
        }
        let length = wet.count
        return wet.indices.map { wet[$0] * fadeOut($0, length: length, fadeFrames: length / 10) }
    }

    static let tomHz: [(key: Int, hz: Double)] = [(41, 82), (43, 98), (45, 110), (47, 131), (48, 147), (50, 175)]

    /// Keys 27–34, 52, 55, 58, 60–87 and the six toms of the standard kit.
    static let standard: [Piece] = extensions + toms + cymbals + latin + effects

    static let extensions: [Piece] = [
        hit("high-q", root: 27, PercussionHit(seconds: 0.12, modes: [Mode(hz: 420, decaySeconds: 0.035, glideFrom: 4, glideSeconds: 0.012)])),
        hit("slap", root: 28, PercussionHit(
            seconds: 0.15, modes: [Mode(hz: 320, level: 0.3, decaySeconds: 0.02)], noises: [Noise(decaySeconds: 0.018, centerHz: 1_800, q: 1)])),
        hit("scratch-push", root: 29, PercussionHit(
            seconds: 0.16, noises: [Noise(decaySeconds: 0.05, centerHz: 500, q: 3, sweepToHz: 2_600, attackSeconds: 0.02, holdSeconds: 0.05)])),
        hit("scratch-pull", root: 30, PercussionHit(
            seconds: 0.2, noises: [Noise(decaySeconds: 0.06, centerHz: 2_200, q: 3, sweepToHz: 350, attackSeconds: 0.02, holdSeconds: 0.07)])),
        hit("sticks", root: 31, PercussionHit(
            seconds: 0.15, modes: [Mode(hz: 2_050, decaySeconds: 0.02), Mode(hz: 3_300, level: 0.6, decaySeconds: 0.015)],
            noises: [Noise(level: 0.4, decaySeconds: 0.004, centerHz: 4_000, q: 1)])),
        hit("square-click", root: 32, PercussionHit(
            seconds: 0.05, modes: [1, 3, 5, 7].map { Mode(hz: 1_300 * Double($0), level: 1 / Double($0), decaySeconds: 0.006) })),
        hit("metronome-click", root: 33, PercussionHit(
            seconds: 0.05, modes: [Mode(hz: 1_800, decaySeconds: 0.006), Mode(hz: 4_200, level: 0.5, decaySeconds: 0.004)])),
        hit("metronome-bell", root: 34, bar(hz: 2_400, ratios: [1, 2.76, 5.4], levels: [1, 0.4, 0.15], decay: 0.3, seconds: 0.7)),
    ]

    static let toms: [Piece] = tomHz.map { (tom: (key: Int, hz: Double)) -> Piece in
        let head = membrane(hz: tom.hz, decay: 0.3 + 20 / tom.hz, seconds: 0.55 + 25 / tom.hz, click: 0.25)
        return hit("tom-\(tom.key)", root: tom.key, head)
    }

    static let cymbals: [Piece] = [
        hit("china", root: 52, PercussionHit(
            seconds: 1.6, modes: (0..<24).map { Mode(hz: 1_400 * pow(1.085, Double($0)), level: 0.35, decaySeconds: 0.35 + 0.01 * Double($0 % 5)) },
            noises: [Noise(decaySeconds: 0.45, highPassHz: 3_000)])),
        hit("splash", root: 55, PercussionHit(
            seconds: 0.9, modes: (0..<20).map { Mode(hz: 3_800 * pow(1.06, Double($0)), level: 0.3, decaySeconds: 0.2 + 0.02 * Double($0 % 4)) },
            noises: [Noise(level: 0.8, decaySeconds: 0.25, highPassHz: 5_000)])),
        hit("vibraslap", root: 58, PercussionHit(
            seconds: 1.0, modes: [Mode(hz: 2_800, decaySeconds: 0.012), Mode(hz: 4_500, level: 0.6, decaySeconds: 0.009)],
            noises: [Noise(level: 0.4, decaySeconds: 0.006, highPassHz: 3_000)],
            strikes: rattle)),
    ]

    static let rattle: [(time: Double, gain: Double)] = (0..<30).map { (index: Int) -> (time: Double, gain: Double) in
        let time = 0.028 * Double(index)
        return (time, exp(-time / 0.25))
    }

    static let latin: [Piece] = [
        hit("bongo-high", root: 60, membrane(hz: 400, decay: 0.12, seconds: 0.35, glide: 1.1, click: 0.4, clickHz: 3_500)),
        hit("bongo-low", root: 61, membrane(hz: 300, decay: 0.15, seconds: 0.4, glide: 1.1, click: 0.35, clickHz: 3_000)),
        hit("conga-mute", root: 62, membrane(hz: 340, decay: 0.05, seconds: 0.25, glide: 1.05, click: 0.6, clickHz: 2_500)),
        hit("conga-open", root: 63, membrane(hz: 330, decay: 0.25, seconds: 0.6, glide: 1.05, click: 0.3, clickHz: 2_500, overtones: 0.6)),
        hit("conga-low", root: 64, membrane(hz: 220, decay: 0.3, seconds: 0.7, glide: 1.05, click: 0.3, clickHz: 2_000, overtones: 0.6)),
        hit("timbale-high", root: 65, PercussionHit(
            seconds: 0.7, modes: [1, 1.62, 2.31, 3.1].map { Mode(hz: 620 * $0, level: 1 / $0, decaySeconds: 0.3 / $0.squareRoot()) },
            noises: [Noise(level: 0.6, decaySeconds: 0.02, centerHz: 4_500, q: 0.8)])),
        hit("timbale-low", root: 66, PercussionHit(
            seconds: 0.8, modes: [1, 1.62, 2.31, 3.1].map { Mode(hz: 420 * $0, level: 1 / $0, decaySeconds: 0.35 / $0.squareRoot()) },
            noises: [Noise(level: 0.6, decaySeconds: 0.02, centerHz: 4_000, q: 0.8)])),
        hit("agogo-high", root: 67, bar(hz: 910, ratios: [1, 2.63, 4.9], levels: [1, 0.45, 0.2], decay: 0.35, seconds: 0.7)),
        hit("agogo-low", root: 68, bar(hz: 650, ratios: [1, 2.63, 4.9], levels: [1, 0.45, 0.2], decay: 0.4, seconds: 0.8)),
        hit("cabasa", root: 69, PercussionHit(seconds: 0.25, noises: [Noise(decaySeconds: 0.06, highPassHz: 5_000, attackSeconds: 0.006)])),
        hit("maracas", root: 70, PercussionHit(seconds: 0.15, noises: [Noise(decaySeconds: 0.035, highPassHz: 6_500, attackSeconds: 0.002)])),
        hit("whistle-short", root: 71, PercussionHit(
            seconds: 0.18, modes: [Mode(hz: 2_500, decaySeconds: 0.02, holdSeconds: 0.1, vibratoHz: 32, vibratoDepth: 0.04)])),
        hit("whistle-long", root: 72, PercussionHit(
            seconds: 0.55, modes: [Mode(hz: 2_500, decaySeconds: 0.04, holdSeconds: 0.4, vibratoHz: 32, vibratoDepth: 0.04)])),
        hit("guiro-short", root: 73, PercussionHit(
            seconds: 0.16, noises: [Noise(decaySeconds: 0.004, centerHz: 3_500, q: 2)],
            strikes: (0..<9).map { (index: Int) -> (time: Double, gain: Double) in (0.012 * Double(index), 1) })),
        hit("guiro-long", root: 74, PercussionHit(
            seconds: 0.5, noises: [Noise(decaySeconds: 0.004, centerHz: 3_200, q: 2)],
            strikes: scrape)),
    ]

    /// A long guiro scrape: the ridges come further apart as the stick slows.
    static let scrape: [(time: Double, gain: Double)] = (0..<26).map { (index: Int) -> (time: Double, gain: Double) in
        let i = Double(index)
        return (0.015 * i + 0.0002 * i * i, 1)
    }

    static let effects: [Piece] = [
        hit("claves", root: 75, PercussionHit(
            seconds: 0.25, modes: [Mode(hz: 2_500, decaySeconds: 0.055), Mode(hz: 6_800, level: 0.2, decaySeconds: 0.02)])),
        hit("woodblock-high", root: 76, bar(hz: 1_200, ratios: [1, 2.6], levels: [1, 0.4], decay: 0.05, seconds: 0.25, click: 0.4)),
        hit("woodblock-low", root: 77, bar(hz: 820, ratios: [1, 2.6], levels: [1, 0.4], decay: 0.06, seconds: 0.25, click: 0.4)),
        hit("cuica-mute", root: 78, PercussionHit(
            seconds: 0.2, modes: [Mode(hz: 800, decaySeconds: 0.05, glideFrom: 0.8, glideSeconds: 0.03, holdSeconds: 0.04)],
            noises: [Noise(level: 0.2, decaySeconds: 0.05, centerHz: 800, q: 4)])),
        hit("cuica-open", root: 79, PercussionHit(
            seconds: 0.45, modes: [Mode(hz: 600, decaySeconds: 0.1, glideFrom: 0.6, glideSeconds: 0.08, holdSeconds: 0.12)],
            noises: [Noise(level: 0.2, decaySeconds: 0.1, centerHz: 600, q: 4)])),
        hit("triangle-mute", root: 80, bar(hz: 1_650, ratios: [1, 2.71, 3.9, 5.2, 6.5], levels: [0.6, 1, 0.7, 0.5, 0.3], decay: 0.08, seconds: 0.3)),
        hit("triangle-open", root: 81, bar(hz: 1_650, ratios: [1, 2.71, 3.9, 5.2, 6.5], levels: [0.6, 1, 0.7, 0.5, 0.3], decay: 1.1, seconds: 1.6)),
        hit("shaker", root: 82, PercussionHit(
            seconds: 0.2, noises: [Noise(decaySeconds: 0.03, highPassHz: 4_500, attackSeconds: 0.01)], strikes: [(0, 1), (0.06, 0.7)])),
        hit("jingle-bell", root: 83, PercussionHit(
            seconds: 0.6, modes: (0..<12).map { Mode(hz: 4_200 * pow(1.07, Double($0)), level: 0.4, decaySeconds: 0.12) },
            noises: [Noise(level: 0.5, decaySeconds: 0.05, highPassHz: 6_000)], strikes: [(0, 1), (0.045, 0.6), (0.1, 0.4)])),
        hit("belltree", root: 84, PercussionHit(
            seconds: 1.5, modes: [Mode(hz: 5_400, decaySeconds: 0.25), Mode(hz: 5_400 * 2.76, level: 0.2, decaySeconds: 0.1)],
            strikes: (0..<12).map { (index: Int) -> (time: Double, gain: Double) in (0.04 * Double(index), 1 - 0.04 * Double(index)) })),
        hit("castanets", root: 85, PercussionHit(
            seconds: 0.15, modes: [Mode(hz: 2_200, decaySeconds: 0.015)], noises: [Noise(level: 0.5, decaySeconds: 0.006, centerHz: 3_000, q: 1)],
            strikes: [(0, 1), (0.025, 0.8)])),
        hit("surdo-mute", root: 86, membrane(hz: 62, decay: 0.1, seconds: 0.4, glide: 1.3, click: 0.35, clickHz: 800)),
        hit("surdo-open", root: 87, membrane(hz: 62, decay: 0.55, seconds: 1.2, glide: 1.3, click: 0.25, clickHz: 800)),
    ]
}
