import AudioFiles
import Glibc
import MIDI

// Regenerates the bundled sounds and demo song: `swift run make-sounds [output-directory]`
// (default `Sounds`). Deterministic: fixed seeds, so a rerun rewrites identical files.

/// Fixed seeds for the noise sources.
let drumSeed: UInt64 = 0xD5_1234
let guitarSeed: UInt64 = 0x6_17A5

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

let arguments = CommandLine.arguments
do {
    try generate(into: arguments.count > 1 ? arguments[1] : "Sounds")
} catch {
    print("make-sounds: \(error)")
    exit(1)
}
