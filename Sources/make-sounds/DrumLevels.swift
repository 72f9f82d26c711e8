/// Each kit piece's level in its kit (zone gain, dB): every piece is stored peak-normalised, and
/// these gains set the kit's balance to FluidR3_GM's key by key (the level of a hit at velocity
/// 100 relative to the acoustic snare, measured by `scripts/gm-levels --drums`; the table and
/// how it was measured are in docs/GM-BALANCE.md). A piece not listed plays at 0 dB.
enum DrumLevels {
    static func gain(_ file: String) -> Double { gains[file] ?? 0 }

    static let gains: [String: Double] = [
        "agogo-high": -14.8, "agogo-low": -14.9, "bass-drum-concert": -5, "belltree": -8.8, "bongo-high": -4.6,
        "bongo-low": -4.3, "brush-slap": -13, "brush-swirl": -16.1, "brush-tap": -7.3, "cabasa": -0.9,
        "castanets": -9.6, "china": -7, "clap": 1.8, "clap-808": 9.5, "claves": -4.9,
        "claves-808": 3.2, "conga-808": 1.3, "conga-low": -5.7, "conga-mute": -3.6, "conga-open": -6.5,
        "cowbell": -4.6, "cowbell-808": -1.3, "crash": -2.3, "cuica-mute": -2, "cuica-open": -1.7,
        "cymbal-808": -1.2, "guiro-long": -5.7, "guiro-short": 0.1, "high-q": -6.2, "hihat-808-closed": 7.1,
        "hihat-808-open": 5.5, "hihat-closed": -6.6, "hihat-open": -12.7, "hihat-pedal": -3.8, "jingle-bell": -4.2,
        "kick": -8.8, "kick-808": -1.9, "kick-deep": -9.7, "kick-electronic": -11.1, "kick-jazz": -2.4,
        "kick-power": -7, "kick-room": -4.4, "maracas": -1.5, "maracas-808": 1.2, "metronome-bell": -7.3,
        "metronome-click": -5.3, "ride": -13.5, "ride-bell": -10.3, "rim-808": 0, "scratch-pull": -4.7,
        "scratch-push": -4.3, "shaker": -2, "side-stick": -1.4, "slap": 6.8, "snare": 2.2,
        "snare-808": 3.3, "snare-concert": -2.9, "snare-electric": 0.1, "snare-electronic": 1.3, "snare-jazz": -2.1,
        "snare-power": 2.2, "snare-room": 1.4, "splash": -8.2, "square-click": -7.1, "sticks": -4,
        "surdo-mute": 1.5, "surdo-open": -1.9, "tambourine": 1.8, "timbale-high": -3.6, "timbale-low": -4.3,
        "timpani": -13.6, "tom-41": -3.8, "tom-43": -2.9, "tom-45": -6.3, "tom-47": -5.8,
        "tom-48": -6, "tom-50": -7.6, "tom-808": 0.4, "tom-electronic": -7.4, "tom-room": -3.6,
        "triangle-mute": -4.9, "triangle-open": -10.9, "vibraslap": 1.1, "whistle-long": -13.1, "whistle-short": -9.8,
        "woodblock-high": -2.5, "woodblock-low": -3.1,
    ]
}
