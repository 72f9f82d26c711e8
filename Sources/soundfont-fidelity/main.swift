import Foundation
import MIDI
import SoundFont
import SoundFontFidelity

// soundfont-fidelity notes FONT [--presets B:P,…] [--audiograph PATH] [--verbose] [--keep DIR] [--oversampled-reference]
//   One note per zone range of every preset, rendered by FluidSynth and by AudioGraph; per preset
//   the notes passing (pitch ≤ 1 cent, level over the first second ≤ 1 dB, attack/decay/release
//   ≤ 10 % or 3 ms), the failures named, and the pass count. --keep DIR keeps the renders and the
//   MIDI file there (the last batch of 8 presets) for a closer look. FluidSynth renders at 44.1 kHz,
//   the rate whose 64-frame envelope blocks the model follows; --oversampled-reference renders it at
//   88.2 kHz and resamples (no aliasing, but its envelope segments then round to other block counts).
// soundfont-fidelity songs FONT SONG… [--audiograph PATH]
//   Per channel of each song: its level alone relative to the whole mix, FluidSynth's and ours.

var arguments = Array(CommandLine.arguments.dropFirst())
@MainActor func option(_ name: String) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    let value = arguments[i + 1]
    arguments.removeSubrange(i...(i + 1))
    return value
}
@MainActor func flag(_ name: String) -> Bool {
    guard let i = arguments.firstIndex(of: name) else { return false }
    arguments.remove(at: i)
    return true
}
let audiograph = option("--audiograph") ?? ".build/release/audiograph"
let presetFilter = option("--presets").map { Set($0.split(separator: ",").map { $0.split(separator: ":").compactMap { Int($0) } }) }
let verbose = flag("--verbose")
let keep = option("--keep")
let oversampled = flag("--oversampled-reference")
guard arguments.count >= 2 else {
    print("usage: soundfont-fidelity notes FONT [--presets B:P,…] [--verbose] [--keep DIR] [--oversampled-reference] | songs FONT SONG…  [--audiograph PATH]")
    exit(2)
}
// A measuring tool run from the repository: say so in one line rather than fail at the first render.
guard FileManager.default.isExecutableFile(atPath: audiograph) else {
    FileHandle.standardError.write("soundfont-fidelity: no audiograph at \(audiograph) (run from the repository after `swift build -c release`, or pass --audiograph PATH)\n".data(using: .utf8)!)
    exit(2)
}
let directory = keep ?? FileManager.default.temporaryDirectory.appendingPathComponent("soundfont-fidelity-\(getpid())").path
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
defer { if keep == nil { try? FileManager.default.removeItem(atPath: directory) } }
let renders = FidelityRenders(audiograph: audiograph, directory: directory)
let font = arguments[1]

switch arguments[0] {
case "notes":
    let file = try SoundFontFile.load(path: font)
    let presets = FidelityNotePlan.presets(of: file).filter { presetFilter?.contains($0) ?? true }
    var report = FidelityReport()
    // Batches of 8 presets: each render stays well inside what the WAV reader accepts (a kit has ~60 notes).
    for start in stride(from: 0, to: presets.count, by: 8) {
        let plan = FidelityNotePlan(font: file, presets: Set(presets[start..<min(start + 8, presets.count)]))
        let midi = "\(directory)/notes.mid"
        try MIDIFileWriterBridge.write(plan, to: midi)
        report.add(plan: plan, reference: try renders.fluidSynth(font: font, midi: midi, name: "notes", oversampled: oversampled), ours: try renders.ours(font: font, midi: midi, name: "notes"))
    }
    for line in report.lines(verbose: verbose) { print(line) }
case "songs":
    for song in arguments.dropFirst(2) {
        for line in try SongBalance(song: song, font: font, renders: renders).lines() { print(line) }
    }
default:
    print("unknown command \(arguments[0])")
    exit(2)
}
