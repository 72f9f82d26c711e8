/// Each kit piece's level in its kit (zone gain, dB): every piece is stored peak-normalised, and
/// these gains set the kit's balance to FluidR3_GM's key by key (the level of a hit at velocity
/// 100 relative to the acoustic snare, measured by `scripts/gm-levels --drums`; the table and
/// how it was measured are in docs/GM-BALANCE.md). A piece not listed plays at 0 dB.
enum DrumLevels {
    static func gain(_ file: String) -> Double { gains[file] ?? 0 }

    static let gains: [String: Double] = [
        "agogo-high": -14.8, "agogo-low": -14.9, "bass-drum-concert": -4.9, "belltree": -8.7, "bongo-high": -4.6,
        "bongo-low": -4.2, "brush-slap": -12.9, "brush-swirl": -16, "brush-tap": -7.2, "cabasa": -0.8,
        "castanets": -9.5, "china": -3.8, "clap": 1.9, "clap-808": 9.5, "claves": -4.8,
        "claves-808": 3.3, "conga-808": 1.4, "conga-low": -5.6, "conga-mute": -3.5, "conga-open": -6.4,
        "cowbell": -4.5, "cowbell-808": -1.2, "crash": 0.8, "cuica-mute": -1.9, "cuica-open": -1.6,
        "cymbal-808": -1.1, "guiro-long": -5.6, "guiro-short": 0.1, "high-q": -6.1, "hihat-808-closed": 7.2,
        "hihat-808-open": 5.6, "hihat-closed": -4.4, "hihat-open": -9.7, "hihat-pedal": -1.5, "jingle-bell": -4.1,
        "kick": -8.7, "kick-808": -1.8, "kick-deep": -9.7, "kick-electronic": -11.1, "kick-jazz": -2.4,
        "kick-power": -7, "kick-room": -4.3, "maracas": -1.4, "maracas-808": 1.3, "metronome-bell": -7.2,
        "metronome-click": -5.3, "ride": -10.8, "ride-bell": -7.1, "rim-808": 0.1, "scratch-pull": -4.6,
        "scratch-push": -4.2, "shaker": -2, "side-stick": -1.3, "slap": 6.9, "snare": 2.2,
        "snare-808": 3.4, "snare-concert": -2.9, "snare-electric": 0.2, "snare-electronic": 1.3, "snare-jazz": -2,
        "snare-power": 2.2, "snare-room": 1.5, "splash": -4.9, "square-click": -7, "sticks": -3.9,
        "surdo-mute": 1.5, "surdo-open": -1.8, "tambourine": 1.9, "timbale-high": -3.5, "timbale-low": -4.3,
        "timpani": -13.5, "tom-41": -3.8, "tom-43": -2.8, "tom-45": -6.3, "tom-47": -5.7,
        "tom-48": -5.9, "tom-50": -7.5, "tom-808": 0.5, "tom-electronic": -7.3, "tom-room": -3.5,
        "triangle-mute": -4.9, "triangle-open": -10.8, "vibraslap": 1.2, "whistle-long": -13, "whistle-short": -9.8,
        "woodblock-high": -2.4, "woodblock-low": -3,
    ]
}
