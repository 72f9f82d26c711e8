import ALSAIO
import ArgumentParser
import Foundation

/// Options of the live loop, shared by `play` and `demo`.
struct LiveArguments: ParsableArguments {
    @Option(help: "ALSA playback device, or 'paced' for a clock-paced null device.")
    var device = "default"

    @Option(help: "ALSA capture device for the mic/line bus, or 'none'.")
    var input = "none"

    @Option(name: .customLong("input-file"), help: "Audio file looped into the mic/line bus instead of a capture device.")
    var inputFile: String?

    @Option(help: "Frames per period.")
    var period = 256

    @Option(help: "Periods in the ALSA buffer.")
    var periods = 3

    @Option(help: "Connect a MIDI source: client:port, a client name or a port name (repeatable).")
    var connect: [String] = []

    @Flag(help: "Connect local MIDI sources (hardware, software) now and whenever one appears; the log says why each port was taken or skipped.")
    var autoconnect = false

    @Option(name: .customLong("autoconnect-include"),
            help: "With --autoconnect: also take this port or client, e.g. an rtpmidid session (exact 'CLIENT:PORT', 'CLIENT', 'N:M' or 'N'; repeatable).")
    var autoconnectInclude: [String] = []

    @Option(name: .customLong("autoconnect-exclude"),
            help: "With --autoconnect: never take this port or client (same syntax; repeatable).")
    var autoconnectExclude: [String] = []

    @Option(name: .customLong("rt-priority"), help: "SCHED_FIFO priority of the audio thread (0 = don't ask).")
    var realtimePriority: Int32 = 70

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    func validate() throws {
        guard (16...8192).contains(period) else { throw ValidationError("--period must be 16…8192 frames") }
        guard (2...32).contains(periods) else { throw ValidationError("--periods must be 2…32") }
        guard (0...99).contains(realtimePriority) else { throw ValidationError("--rt-priority must be 0…99") }
        _ = try autoconnectPolicy()
    }

    func autoconnectPolicy() throws -> AutoconnectPolicy {
        do { return try AutoconnectPolicy(including: autoconnectInclude, excluding: autoconnectExclude) } catch {
            throw ValidationError("\(error)")
        }
    }

    func options(rate: Int) -> LiveOptions {
        var o = LiveOptions()
        o.device = device
        o.inputDevice = input
        o.inputFile = inputFile
        o.rate = rate
        o.periodFrames = period
        o.periods = periods
        o.connect = connect
        if autoconnect { o.autoconnect = try? autoconnectPolicy() }  // validated in validate()
        o.realtimePriority = realtimePriority > 0 ? realtimePriority : nil
        o.durationSeconds = duration
        return o
    }
}

/// `audiograph play`: the live instrument on ALSA.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play", abstract: "Run the instrument live: ALSA sequencer in, ALSA playback out.")

    @OptionGroup var live: LiveArguments
    @OptionGroup var engineOptions: EngineOptions

    @Option(help: "Also play this MIDI file into the instrument in real time.")
    var midi: String?

    @Flag(inversion: .prefixedNo, help: "When the playback device is absent at start, wait for it (retrying with back-off) instead of exiting.")
    var waitForDevice = true

    func run() throws {
        try engineOptions.validateRate()
        var options = live.options(rate: engineOptions.rate)
        options.songPath = midi
        let session = LiveSession(loader: try engineOptions.loader(), options: options)
        guard waitForDevice else { throw ExitCode(try session.run(try session.openOutput())) }
        guard let opened = session.waitForOutput() else { return }
        throw ExitCode(try session.run(opened))
    }
}

/// `audiograph demo`: the bundled demo song, live on the default device — or, with no sound card,
/// rendered through the full graph to a WAV file.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Play the demo song live, or render it to a WAV file where there is no sound card.")

    @OptionGroup var live: LiveArguments
    @OptionGroup var engineOptions: EngineOptions

    @Option(help: "Where the WAV goes when there is no sound card.")
    var out = "audiograph-demo.wav"

    func run() throws {
        try engineOptions.validateRate()
        var loader = try engineOptions.loader()
        loader.playsDemo = true
        guard let song = loader.demoPath else { throw ValidationError("the instrument names no demo song") }
        var options = live.options(rate: engineOptions.rate)
        options.songPath = song
        let session = LiveSession(loader: loader, options: options)
        let opened: LiveSession.OpenedOutput
        do {
            opened = try session.openOutput()
        } catch {
            // No sound card (or the device refuses): the demo is still worth hearing, offline.
            LiveSession.log("\(error)")
            LiveSession.log("cannot play live: rendering the demo through the full graph instead")
            let summary = try RenderCommand.render(midiPath: nil, outPath: out, inputPath: nil, block: 256,
                                                   options: engineOptions, progressOnTerminal: true)
            let path = URL(fileURLWithPath: out).standardizedFileURL.path
            print(summary.line(outputPath: path))
            print("listen: aplay \(path)   (or any audio player)")
            return
        }
        throw ExitCode(try session.run(opened))
    }
}
