import ArgumentParser
import AudioFiles
import DSP
import Engine
import Sampler
import Foundation
import MIDI

/// `audiograph render`: the full graph, offline, from a MIDI file (and an input WAV) to a WAV file.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render", abstract: "Render a MIDI file through the full graph to a WAV file, faster than real time.")

    @Option(help: "Standard MIDI file to play (default: the instrument's demo song).")
    var midi: String?

    @Option(help: "Output WAV file.")
    var out: String = "audiograph-render.wav"

    @Option(help: "Audio file fed to the mic/line input bus.")
    var input: String?

    @Option(help: "Frames per render block (1…4096).")
    var block: Int = 256

    @Option(help: "Render only this MIDI channel (1–16): the other parts are muted (their notes are not played).")
    var solo: Int?

    /// Realtime by default: a dense General MIDI song renders well over 100× real time and sounds as it
    /// does live (FluidSynth's default is the same class of 4-point interpolation).
    @Option(help: "Sampler interpolation: realtime (4-point cubic on band-limited levels, as live, ≤ −80 dBc) or high (16 taps, ≤ −110 dBc).")
    var quality: String = "realtime"

    @Option(help: "Longest song to render, in seconds (1…86400); events after it are not played, and the release tail after the last event is at most 30 s.")
    var maxSeconds: Double = 3600

    @OptionGroup var engineOptions: EngineOptions

    func validate() throws {
        try engineOptions.validateRate()
        guard (1...4096).contains(block) else { throw ValidationError("--block must be between 1 and 4096 frames") }
        if let solo, !(1...16).contains(solo) { throw ValidationError("--solo must be a MIDI channel 1–16") }
        guard ["high", "realtime"].contains(quality) else { throw ValidationError("--quality is high or realtime") }
        guard (1...86_400).contains(maxSeconds) else { throw ValidationError("--max-seconds must be between 1 and 86400") }
    }

    func run() throws {
        let summary = try Self.render(
            midiPath: midi, outPath: out, inputPath: input, block: block, options: engineOptions, progressOnTerminal: true,
            solo: solo.map { $0 - 1 }, quality: quality == "high" ? .high : .realtime, maxSeconds: maxSeconds)
        print(summary.line(outputPath: out))
        for part in summary.parts { print(part.line) }
    }

    /// Shared with `play`'s fallback when there is no sound card.
    static func render(midiPath: String?, outPath: String, inputPath: String?, block: Int, options: EngineOptions,
                       progressOnTerminal: Bool, solo: Int? = nil, quality: InterpolationQuality = .realtime,
                       maxSeconds: Double = 3600) throws -> OfflineRenderSummary {
        var loader = try options.loader()
        loader.soloChannel = solo
        loader.levels = .byNeed  // the renderer builds what the song plays (`LevelBuildPlan`)
        let song = try (midiPath ?? loader.demoPath).map { path throws(MIDIFileError) in try MIDIFile.read(path: path) }
        if let song { loader.programSelection = ProgramSelection(messages: song.events.map(\.message)) }  // loads only what it plays
        let rate = Double(options.rate)
        let engine = try loader.makeEngine(configuration: EngineConfiguration(sampleRate: rate, maxFrames: block, samplerQuality: quality))
        guard let song else { throw ValidationError("no --midi file given and the instrument names no demo song") }
        let input = try inputPath.map { path throws(AudioFileError) in try AudioFileReader.read(path: path, convertingTo: rate) }
        let writer = try WAVFileWriter(path: outPath, sampleRate: Int(rate), channels: 2, encoding: .float32)
        defer { writer.close() }
        let renderer = OfflineRenderer(engine: engine, blockFrames: block)
        renderer.maxSongSeconds = maxSeconds
        let bar = ProgressBar(enabled: progressOnTerminal)
        let summary = try renderer.render(
            midi: song.events, input: input,
            sink: { (b: StereoBlock) throws(AudioFileError) in try writer.write(left: b.left, right: b.right, frames: b.frames) },
            progress: bar.update)
        bar.finish()
        if solo == nil { for line in PartReport().newIgnoredNoteLines(engine.controller) { LiveSession.log(line) } }
        for warning in summary.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
        return summary
    }
}
