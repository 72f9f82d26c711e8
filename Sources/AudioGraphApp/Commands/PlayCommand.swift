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

    @Option(parsing: .unconditional, help: "Frames per period (16…8192).")
    var period = 256

    @Option(parsing: .unconditional, help: "Periods in the ALSA buffer (2…32).")
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

    @Option(name: .customLong("rt-priority"), parsing: .unconditional, help: "SCHED_FIFO priority of the audio thread (0…99; 0 = don't ask).")
    var realtimePriority: Int32 = 70

    @Option(parsing: .unconditional, help: "Stop after this many seconds (0.001…315360000).")
    var duration: Double?

    @Option(help: "alsa (an ALSA PCM: --device) or jack (a native JACK client, ports AudioGraph:out_L/out_R; with PipeWire: pw-jack audiograph …).")
    var driver = "alsa"

    @Flag(name: .customLong("jack-connect"), help: "With --driver jack: connect the outputs to the JACK server's physical playback ports (and its physical MIDI sources to midi_in with --jack-midi).")
    var jackConnect = false

    @Flag(name: .customLong("jack-midi"), help: "With --driver jack: also take MIDI from a JACK MIDI in port, AudioGraph:midi_in (applied at the frame it arrives on).")
    var jackMIDI = false

    func validate() throws {
        try OptionRange.check(period, 16...8192, "--period", unit: "frames")
        try OptionRange.check(periods, 2...32, "--periods")
        try OptionRange.check(realtimePriority, 0...99, "--rt-priority")
        if let duration { try OptionRange.check(duration, 0.001...315_360_000, "--duration", unit: "s") }
        guard LiveDriverKind(rawValue: driver) != nil else { throw ValidationError("--driver must be alsa or jack") }
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
        o.driver = LiveDriverKind(rawValue: driver) ?? .alsa  // validated in validate()
        o.jackConnect = jackConnect
        o.jackMIDI = jackMIDI
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

    @Option(help: "Serve the web panel at [ADDR:]PORT (127.0.0.1 when ADDR is left out; other addresses need the token, docs/PANEL.md).")
    var panel: String?

    func run() throws {
        var options = live.options(rate: engineOptions.rate)
        options.songPath = midi
        let loader = try engineOptions.loader()
        options.panel = panel ?? loader.file.panel
        if options.driver == .jack { throw ExitCode(try Self.runJACK(loader: loader, options: options, wait: waitForDevice)) }
        let session = LiveSession(loader: loader, options: options)
        guard waitForDevice else { throw ExitCode(try session.run(try session.devices.openOutput())) }
        guard let opened = session.waitForOutput() else { return }
        throw ExitCode(try session.run(opened))
    }

    /// `play --driver jack`: a JACK client (waited for like a missing card), run until stopped; again
    /// at the new rate when the server changes its sample rate (the song is not started again).
    static func runJACK(loader: InstrumentLoader, options: LiveOptions, wait: Bool) throws -> Int32 {
        var options = options
        let stop = StopSignal()
        while true {
            let session = LiveSession(loader: loader, options: options, stop: stop)
            guard let client = try session.openJACK(wait: wait) else { return 0 }
            let status = try session.run(.jack(client))
            guard status == LiveSession.restartForNewRate else { return status }
            stop.reset()  // the old session stopped itself for the new rate
            options.songPath = nil
        }
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
        var loader = try engineOptions.loader()
        loader.playsDemo = true
        guard let song = loader.demoPath else { throw ValidationError("the instrument names no demo song") }
        var options = live.options(rate: engineOptions.rate)
        options.songPath = song
        let session = LiveSession(loader: loader, options: options)
        let opened: LiveDevices.OpenedOutput
        do {
            opened = try session.devices.openOutput()
        } catch {
            // No sound card (or the device refuses): the demo is still worth hearing, offline.
            LiveLog.line("\(error)")
            LiveLog.line("cannot play live: rendering the demo through the full graph instead")
            let summary = try RenderCommand.render(midiPath: nil, outPath: out, inputPath: nil, block: RenderCommand.defaultBlock,
                                                   options: engineOptions, progressOnTerminal: true)
            let path = URL(fileURLWithPath: out).standardizedFileURL.path
            print(summary.line(outputPath: path))
            print("listen: aplay \(path)   (or any audio player)")
            return
        }
        throw ExitCode(try session.run(opened))
    }
}
