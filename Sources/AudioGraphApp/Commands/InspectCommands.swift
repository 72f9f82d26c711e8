import ALSAIO
import ArgumentParser
import AudioFiles
import FileAccess
import Foundation
import Presets
import Sampler
import SamplerLevels
import SamplerLoading
import Spectral

/// `audiograph ports`: sequencer clients and ports (like `aconnect -l`, with capabilities), PCM devices,
/// and what the running sound servers offer.
struct PortsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ports", abstract: "List MIDI sequencer ports, PCM devices, sound servers and JACK ports.")

    func run() throws {
        print("MIDI sequencer ports:")
        do {
            for port in try SequencerClient.listPorts() { printOutside("  \(port)") }
        } catch {
            print("  (no ALSA sequencer: \(error))")
        }
        print("PCM devices:")
        let devices = PCMDevice.listDevices()
        if devices.isEmpty { print("  (none)") }
        for d in devices {
            let direction = [d.supportsPlayback ? "playback" : nil, d.supportsCapture ? "capture" : nil].compactMap { $0 }.joined(separator: "+")
            printOutside("  \(d.name)  [\(direction)]  \(d.description.split(separator: "\n").joined(separator: " — "))")
        }
        for line in ServerPorts.lines() { print(line) }
    }
}

/// `audiograph pitch FILE.wav [--csv]`: the pitch detector over a file, frame by frame.
struct PitchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pitch", abstract: "Print time, frequency and confidence per frame of an audio file.")

    @Argument(help: "Audio file (any format libsndfile reads).") var file: String
    @Flag(help: "Comma-separated output.") var csv = false
    @Option(parsing: .unconditional, help: "Hop between frames, in samples (1…65536).") var hop = 512

    func validate() throws {
        try OptionRange.check(hop, 1...65_536, "--hop", unit: "samples")
    }

    func run() throws {
        // Read in chunks and analysed as it comes: memory does not follow the file's length.
        let stream = try AudioFileStream(path: file)
        let detector = PitchDetector(sampleRate: stream.sampleRate, hopFrames: hop)
        print(csv ? "time_s,frequency_hz,confidence,voiced" : "    time   frequency  confidence")
        let channels = stream.channelCount, chunkFrames = 1 << 16
        let interleaved = UnsafeMutablePointer<Float>.allocate(capacity: chunkFrames * channels)
        defer { interleaved.deallocate() }
        // Mono samples from frame `dropped` on; windows start every `hop` frames from 0.
        var mono: [Float] = [], dropped = 0, start = 0
        while true {
            let got = try stream.read(into: interleaved, frames: chunkFrames)
            if got == 0 { break }
            for frame in 0..<got {
                if channels == 1 {
                    mono.append(interleaved[frame])
                } else {
                    var sum: Float = 0
                    for c in 0..<channels { sum += interleaved[frame * channels + c] }
                    mono.append(sum / Float(channels))
                }
            }
            mono.withUnsafeBufferPointer { all in
                while start + detector.frameFrames <= dropped + all.count {
                    let e = detector.estimate(all.baseAddress! + (start - dropped))
                    printEstimate(time: (Double(start) + Double(detector.frameFrames) / 2) / stream.sampleRate, e)
                    start += hop
                }
            }
            let done = min(start, dropped + mono.count) - dropped
            mono.removeFirst(done)
            dropped += done
        }
    }

    private func printEstimate(time: Double, _ e: PitchEstimate) {
        if csv {
            // Typed: an untyped `0` here went to the C varargs as an Int and shifted the columns.
            let frequency: Double = e.voiced ? e.frequencyHz : 0
            print(String(format: "%.4f,%.3f,%.3f,%d", time, frequency, e.confidence, e.voiced ? 1 : 0))
        } else {
            print(String(format: "%8.3f  %10@  %10.2f", time, e.voiced ? String(format: "%.2f Hz", e.frequencyHz) : "—", e.confidence))
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
    @Option(parsing: .unconditional, help: "Sample rate the samples are prepared for, in Hz (8000…192000).") var rate = 48000

    func validate() throws {
        try OptionRange.check(rate, 8000...192_000, "--rate", unit: "Hz")
    }

    func run() throws {
        var failures = 0
        for file in files {
            if SoundFontInspection.isSoundFont(file) {
                if !SoundFontInspection.check(file, verifySamples: true) { failures += 1 }
                continue
            }
            printOutside("== \(file)")
            do {
                let preset = try AUPreset.load(path: file)
                // Levels are built when played (render, play); here only what they would take is said.
                let loaded = try SamplerProgramBuilder.build(
                    preset: preset, presetPath: file, searchDirectories: samplePaths, sampleRate: Double(rate), levels: .byNeed)
                let facts = Dictionary(loaded.samples.compactMap { s -> (String, SamplerSampleInfo.FileFacts)? in
                    if case .loaded(let path, _, let f) = s.status { return (path, f) }
                    return nil
                }, uniquingKeysWith: { a, _ in a })
                let resolver = SamplePathResolver(presetPath: file, searchDirectories: samplePaths)
                printOutside(preset.checkReport(resolver: resolver) { path in
                    guard let f = facts[path] else { return [] }
                    let seconds = Double(f.frameCount) / f.sampleRate
                    let loop = f.loop.map { "loop \($0.startFrame)–\($0.endFrame)" } ?? "no loop"
                    return ["\(f.formatDescription), \(f.frameCount) frames (\(String(format: "%.2f", seconds)) s), root \(f.rootKey.map(String.init) ?? "—"), \(loop)"]
                })
                let extra = loaded.warnings.filter { !preset.warnings.contains($0) }
                if !extra.isEmpty { printOutside("sampler warnings:\n" + extra.map { "  - \($0)" }.joined(separator: "\n")) }
                print(Self.levelLine(loaded.program))
                print("playable: yes")
            } catch {
                failures += 1
                printOutside("playable: NO — \(error)")
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// What the program's band-limited levels would take, against the level budget.
    static func levelLine(_ program: SamplerProgram) -> String {
        let requests = program.levelRequests, budget = LevelStore.shared.budget.limitBytes
        let bytes = requests.reduce(0) { $0 + LevelStore.shared.cost(of: $1) }
        let fits = bytes <= budget ? "within" : "more than"
        return "band-limited levels: \(LevelBudget.describe(bytes)) for \(requests.count) region(s), built when played; "
            + "\(fits) the \(LevelBudget.describe(budget)) level budget (--level-memory)"
    }
}
