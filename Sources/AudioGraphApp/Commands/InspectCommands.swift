import ALSAIO
import ArgumentParser
import AudioFiles
import Foundation
import Presets
import Sampler
import SamplerLoading
import Spectral

/// `audiograph ports`: sequencer clients and ports (like `aconnect -l`, with capabilities) and PCM devices.
struct PortsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ports", abstract: "List MIDI sequencer ports and PCM devices.")

    func run() throws {
        print("MIDI sequencer ports:")
        do {
            for port in try SequencerClient.listPorts() { print("  \(port)") }
        } catch {
            print("  (no ALSA sequencer: \(error))")
        }
        print("PCM devices:")
        let devices = PCMDevice.listDevices()
        if devices.isEmpty { print("  (none)") }
        for d in devices {
            let direction = [d.supportsPlayback ? "playback" : nil, d.supportsCapture ? "capture" : nil].compactMap { $0 }.joined(separator: "+")
            print("  \(d.name)  [\(direction)]  \(d.description.split(separator: "\n").joined(separator: " — "))")
        }
    }
}

/// `audiograph pitch FILE.wav [--csv]`: the pitch detector over a file, frame by frame.
struct PitchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pitch", abstract: "Print time, frequency and confidence per frame of an audio file.")

    @Argument(help: "Audio file (any format libsndfile reads).") var file: String
    @Flag(help: "Comma-separated output.") var csv = false
    @Option(help: "Hop between frames, in samples (1…65536).") var hop = 512

    func validate() throws {
        guard (1...65_536).contains(hop) else { throw ValidationError("--hop must be between 1 and 65536 samples") }
    }

    func run() throws {
        let audio = try AudioFileReader.read(path: file)
        let mono = audio.channels.count == 1 ? audio.channels[0]
            : (0..<audio.frameCount).map { i in audio.channels.reduce(0) { $0 + $1[i] } / Float(audio.channels.count) }
        let frames = PitchDetector.analyze(samples: mono, sampleRate: audio.sampleRate, hop: hop)
        print(csv ? "time_s,frequency_hz,confidence,voiced" : "    time   frequency  confidence")
        for (time, e) in frames {
            if csv {
                // Typed: an untyped `0` here went to the C varargs as an Int and shifted the columns.
                let frequency: Double = e.voiced ? e.frequencyHz : 0
                print(String(format: "%.4f,%.3f,%.3f,%d", time, frequency, e.confidence, e.voiced ? 1 : 0))
            } else {
                print(String(format: "%8.3f  %10@  %10.2f", time, e.voiced ? String(format: "%.2f Hz", e.frequencyHz) : "—", e.confidence))
            }
        }
    }
}

/// `audiograph preset check FILE…`: what a preset contains, where its samples are, what plays.
struct PresetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "preset", abstract: "Inspect .aupreset files.", subcommands: [PresetCheckCommand.self])
}

struct PresetCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Load each preset: layers, zones, keyboard map, samples and where they were found, warnings (SoundFonts: as `soundfont list --verify`).")

    @Argument(help: ".aupreset files, or SoundFonts (.sf2/.sf3, recognised by content).") var files: [String]
    @Option(name: .customLong("sample-path"), help: "Directory to search for samples (repeatable).") var samplePaths: [String] = []
    @Option(help: "Sample rate the samples are prepared for.") var rate = 48000

    func run() throws {
        var failures = 0
        for file in files {
            if SoundFontInspection.isSoundFont(file) {
                if !SoundFontInspection.check(file, verifySamples: true) { failures += 1 }
                continue
            }
            print("== \(file)")
            do {
                let preset = try AUPreset.load(path: file)
                let loaded = try SamplerProgramBuilder.build(preset: preset, presetPath: file, searchDirectories: samplePaths, sampleRate: Double(rate))
                let facts = Dictionary(loaded.samples.compactMap { s -> (String, SamplerSampleInfo.FileFacts)? in
                    if case .loaded(let path, _, let f) = s.status { return (path, f) }
                    return nil
                }, uniquingKeysWith: { a, _ in a })
                let resolver = SamplePathResolver(presetPath: file, searchDirectories: samplePaths)
                print(preset.checkReport(resolver: resolver) { path in
                    guard let f = facts[path] else { return [] }
                    let seconds = Double(f.frameCount) / f.sampleRate
                    let loop = f.loop.map { "loop \($0.startFrame)–\($0.endFrame)" } ?? "no loop"
                    return ["\(f.formatDescription), \(f.frameCount) frames (\(String(format: "%.2f", seconds)) s), root \(f.rootKey.map(String.init) ?? "—"), \(loop)"]
                })
                let extra = loaded.warnings.filter { !preset.warnings.contains($0) }
                if !extra.isEmpty { print("sampler warnings:\n" + extra.map { "  - \($0)" }.joined(separator: "\n")) }
                print("playable: yes")
            } catch {
                failures += 1
                print("playable: NO — \(error)")
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }
}
