/// Each kit piece's level in its kit (zone gain, dB): every piece is stored peak-normalised, and
/// these gains set the kit's balance to FluidR3_GM's key by key (the level of a hit at velocity
/// 100 relative to the acoustic snare, measured by `scripts/gm-levels --drums`; the table and
/// how it was measured are in docs/GM-BALANCE.md). A piece not listed plays at 0 dB.
enum DrumLevels {
    static func gain(_ file: String) -> Double { gains[file] ?? 0 }

    static let gains: [String: Double] = [
        "agogo-high": -14.5, "agogo-low": -15.1, "bass-drum-concert": -5, "belltree": -7.8, "bongo-high": -4.7,
        "bongo-low": -4.2, "brush-slap": -12.7, "brush-swirl": -15.9, "brush-tap": -7, "cabasa": -0.6,
        "castanets": -9.5, "china": -3.8, "clap": 1.9, "clap-808": 9.5, "claves": -4.8,
        "claves-808": 3.2, "conga-808": 1.6, "conga-low": -5.7, "conga-mute": -3.6, "conga-open": -6.1,
        "cowbell": -4.7, "cowbell-808": -1.2, "crash": 0.9, "cuica-mute": -1.9, "cuica-open": -1.8,
        "cymbal-808": -1, "guiro-long": -5.5, "guiro-short": 0.2, "high-q": -6.1, "hihat-808-closed": 7.3,
        "hihat-808-open": 5.7, "hihat-closed": -4.2, "hihat-open": -9.5, "hihat-pedal": -1.3, "jingle-bell": -4.2,
        "kick": -8.9, "kick-808": -1.4, "kick-deep": -9.9, "kick-electronic": -11.7, "kick-jazz": -2.7,
        "kick-power": -6.8, "kick-room": -4.4, "maracas": -1.3, "maracas-808": 1.5, "metronome-bell": -6.6,
        "metronome-click": -5.3, "ride": -10.8, "ride-bell": -7.5, "rim-808": 0.1, "scratch-pull": -4.6,
        "scratch-push": -4.2, "shaker": -1.8, "side-stick": -1.3, "slap": 6.9, "snare": 2.1,
        "snare-808": 3.2, "snare-concert": -2.8, "snare-electric": 0.2, "snare-electronic": 1.4, "snare-jazz": -2,
        "snare-power": 2.4, "snare-room": 1.4, "splash": -4.9, "square-click": -7, "sticks": -3.9,
        "surdo-mute": 1.5, "surdo-open": -2.2, "tambourine": 2, "timbale-high": -3.5, "timbale-low": -4.3,
        "timpani": -13.2, "tom-41": -4.7, "tom-43": -2.8, "tom-45": -6, "tom-47": -6.3,
        "tom-48": -5, "tom-50": -7.3, "tom-808": 0.4, "tom-electronic": -7.5, "tom-room": -3.4,
        "triangle-mute": -4.8, "triangle-open": -10.7, "vibraslap": 1.2, "whistle-long": -13.2, "whistle-short": -9.8,
        "woodblock-high": -2.4, "woodblock-low": -3.3,
    ]
}
