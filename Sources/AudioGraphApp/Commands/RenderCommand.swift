import ArgumentParser
import AudioFiles
import DSP
import Engine
import Sampler
import SamplerLevels
import Foundation
import MIDI

/// `audiograph render`: the full graph, offline, from a MIDI file (and an input WAV) to a WAV file.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render", abstract: "Render a MIDI file through the full graph to an audio file, faster than real time.")

    @Option(help: "Standard MIDI file to play (default: the instrument's demo song).")
    var midi: String?

    @Option(help: """
        Output file; its extension picks the format: .wav (32-bit float; RF64 past 4 GiB), .flac (24-bit), .aiff/.aif (24-bit), \
        .caf (32-bit float), .ogg/.oga (Vorbis, quality 0.6). '-': WAV on standard output.
        """)
    var out: String = "audiograph-render.wav"

    @Option(help: "Audio file fed to the mic/line input bus.")
    var input: String?

    /// The blocks `--block` takes.
    static let blocks = 1...4096
    /// The largest: an offline render keeps no latency, so its block only sets how often the
    /// per-block work (the master stage, meters, the helpers' hand-over) runs. Events still land
    /// on their own frames (`AudioEngine.render` splits the block at each).
    static let defaultBlock = blocks.upperBound

    @Option(parsing: .unconditional, help: "Frames per render block (1…4096; events land on their exact frames whatever it is).")
    var block: Int = defaultBlock

    @Option(parsing: .unconditional, help: "Render only this MIDI channel (1…16): the other parts are muted (their notes are not played).")
    var solo: Int?

    /// Realtime by default: a dense General MIDI song renders well over 100× real time and sounds as it
    /// does live (FluidSynth's default is the same class of 4-point interpolation).
    @Option(help: "Sampler interpolation: realtime (4-point cubic on band-limited levels, as live, ≤ −80 dBc) or high (16 taps, ≤ −110 dBc).")
    var quality: String = "realtime"

    @Option(parsing: .unconditional, help: """
        Threads rendering the sampler's parts (1…16; default: one per processor, at most 8). The file is the same, byte for byte, \
        with any number.
        """)
    var threads: Int = RenderCommand.defaultThreads

    /// One per processor, up to 8: a General MIDI song rarely keeps more parts busy at once.
    static var defaultThreads: Int { min(max(1, ProcessInfo.processInfo.activeProcessorCount), 8) }

    @Option(parsing: .unconditional, help: "Longest song to render, in seconds (1…86400); events after it are not played, and the release tail after the last event is at most 30 s.")
    var maxSeconds: Double = 3600

    @OptionGroup var engineOptions: EngineOptions

    func validate() throws {
        try OptionRange.check(block, Self.blocks, "--block", unit: "frames")
        if let solo { try OptionRange.check(solo, 1...16, "--solo (a MIDI channel)") }
        guard ["high", "realtime"].contains(quality) else { throw ValidationError("--quality is high or realtime") }
        try OptionRange.check(maxSeconds, 1...86_400, "--max-seconds", unit: "s")
        try OptionRange.check(threads, 1...16, "--threads")
        do { try RenderOutput.check(out) } catch { throw ValidationError("--out \(error)") }
    }

    func run() throws {
        let summary = try Self.render(
            midiPath: midi, outPath: out, inputPath: input, block: block, options: engineOptions, progressOnTerminal: true,
            solo: solo.map { $0 - 1 }, quality: quality == "high" ? .high : .realtime, maxSeconds: maxSeconds, threads: threads)
        // With the audio on standard output, what is said goes to standard error.
        let say: (String) -> Void = out == RenderOutput.standardOutputName ? { LiveLog.line($0) } : { print($0) }
        say(summary.line(outputPath: out))
        for part in summary.parts { say(part.line) }
    }

    /// Shared with `play`'s fallback when there is no sound card.
    static func render(midiPath: String?, outPath: String, inputPath: String?, block: Int, options: EngineOptions,
                       progressOnTerminal: Bool, solo: Int? = nil, quality: InterpolationQuality = .realtime,
                       maxSeconds: Double = 3600, threads: Int = 1) throws -> OfflineRenderSummary {
        var loader = try options.loader()
        loader.playsDemo = midiPath == nil
        loader.soloChannel = solo
        loader.levels = .byNeed  // the renderer builds what the song plays (`LevelBuildPlan`)
        let rate = Double(options.rate)
        // The song first: a SoundFont reads only the presets, zones and samples it plays, and the
        // program table loads only the entries it can select. The instrument is still built before
        // a missing song is reported (its errors come first).
        let songPath = midiPath ?? loader.demoPath
        let song = try songPath.map { path throws(MIDIFileError) in try MIDIFile.read(path: path) }
        loader.song = song?.events.map(\.message)
        loader.programSelection = loader.song.map { ProgramSelection(messages: $0) }
        let engine = try loader.makeEngine(configuration: EngineConfiguration(sampleRate: rate, maxFrames: block, samplerQuality: quality, samplerWorkers: threads))
        LevelStore.shared.buildThreads = threads
        guard let songPath, let song else {
            throw ValidationError("no --midi file given and the instrument names no demo song")
        }
        for warning in song.warnings { LiveLog.warn("\(songPath): \(warning)") }
        // Read and converted block by block as the render goes: memory does not follow its length.
        let input = try inputPath.map { path throws(AudioFileError) in try StreamedInput(path: path, sampleRate: rate) }
        for warning in input?.warnings ?? [] { LiveLog.warn(warning) }
        // Opened last: every input is open by now, so none of them can be the output.
        let output = try RenderOutput(path: outPath, sampleRate: Int(rate))
        let renderer = OfflineRenderer(engine: engine, blockFrames: block)
        renderer.maxSongSeconds = maxSeconds
        // With helper threads, they write the file between spans, and have the disk write it as
        // it grows (so that committing it does not wait for all of it).
        let handedOff = engine.configuration.samplerWorkers > 1 ? HandedOffWriter(sink: output.writer, blockFrames: renderer.blockFrames) { output.startWriteback() } : nil
        if let handedOff { renderer.helperIdleWork = { handedOff.drain() } }
        let bar = ProgressBar(enabled: progressOnTerminal)
        let summary: OfflineRenderSummary
        do {
            summary = try renderer.render(
                midi: song.events, input: input,
                sink: { (b: StereoBlock) throws(AudioFileError) in
                    if let handedOff { try handedOff.write(b) } else { try output.writer.write(left: b.left, right: b.right, frames: b.frames) }
                },
                progress: bar.update)
            try handedOff?.finish()
            bar.finish()
            try output.commit()
        } catch {
            bar.finish()
            output.discard()
            throw error
        }
        if solo == nil { for line in PartReport().newIgnoredNoteLines(engine.controller) { LiveLog.line(line) } }
        for warning in summary.warnings { LiveLog.warn(warning) }
        return summary
    }
}
