import AudioFiles
import Glibc
import MIDI

// Regenerates the bundled sounds, demo song and presets:
// `swift run make-sounds [sounds-directory [presets-directory]]` (default `Sounds` and `Presets`).
// Deterministic: fixed seeds, so a rerun rewrites identical files.

/// Fixed seeds for the noise sources.
let drumSeed: UInt64 = 0xD5_1234
let guitarSeed: UInt64 = 0x6_17A5
let drumKitSeed: UInt64 = 0xD5_0049

func generate(into directory: String) throws(AudioFileError) {
    mkdir(directory, 0o755)
    mkdir(directory + "/Keys", 0o755)

    try WAVFileWriter.write(
        path: directory + "/beat.wav", channels: [DrumLoop.render(seed: drumSeed)], sampleRate: Int(DrumLoop.sampleRate),
        encoding: .pcm16)
    print("beat.wav: \(DrumLoop.framesPerSixteenth * DrumLoop.sixteenthsPerLoop) frames at 48 kHz")

    try WAVFileWriter.write(
        path: directory + "/guitar.wav", channels: GuitarLoop.render(seed: guitarSeed),
        sampleRate: Int(GuitarLoop.sampleRate), encoding: .pcm24)
    print("guitar.wav: \(GuitarLoop.framesPerBeat * GuitarLoop.beatsPerLoop) frames at 44.1 kHz, stereo 24-bit")

    let leadLoop = try SampleInstruments.writeLead(to: directory + "/lead.aif")
    print("lead.aif: loop of \(leadLoop.periods) periods in \(leadLoop.frames) frames = \(leadLoop.frequency) Hz")

    for path in try SampleInstruments.writeKeys(to: directory + "/Keys") { print(path) }

    do {
        try MIDIFileWriter.write(
            path: directory + "/demo.mid", tracks: DemoSong.tracks(), ticksPerQuarter: DemoSong.ticksPerQuarter,
            tempoChanges: DemoSong.tempoChanges)
    } catch {
        throw AudioFileError(path: error.path ?? directory + "/demo.mid", reason: error.reason)
    }
    print("demo.mid written")
}

/// The General MIDI sounds (Bass, Guitar, Strings, Organ, the tone families, the drum kits) and
/// every sampler preset but Lead and Sine (hand-written: they show AUSampler forms our writer does
/// not produce).
func generateGM(sounds: String, presets: String) throws(AudioFileError) {
    for folder in ["Bass", "Guitar", "Strings", "Organ", "Drums"] { mkdir(sounds + "/" + folder, 0o755) }
    mkdir(presets, 0o755)
    let specs = [
        GMPresets.keys,
        GMPresets.bass(try GMInstruments.writeBass(to: sounds)),
        GMPresets.guitar(try GMInstruments.writeGuitar(to: sounds)),
        GMPresets.strings(try GMInstruments.writeStrings(to: sounds)),
        GMPresets.organ(try GMInstruments.writeOrgan(to: sounds)),
    ]
    var families: [SamplerPresetSpec] = []
    for family in ToneFamilies.all {
        families.append(GMPresets.family(family.folder, try family.write(to: sounds)))
    }
    for path in try DrumKit.write(to: sounds, seed: drumKitSeed) { print(path) }
    for spec in specs + families + DrumKit.kits.map(GMPresets.drums) {
        try spec.write(to: presets + "/\(spec.name).aupreset")
        print("\(spec.name).aupreset: \(spec.zones.count) zones")
    }
}

let arguments = CommandLine.arguments
do {
    let sounds = arguments.count > 1 ? arguments[1] : "Sounds"
    try generate(into: sounds)
    try generateGM(sounds: sounds, presets: arguments.count > 2 ? arguments[2] : "Presets")
} catch {
    print("make-sounds: \(error)")
    exit(1)
}
