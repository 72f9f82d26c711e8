import ALSAIO
import Engine
import Foundation
import LiveControl
import LiveLoop
import SamplerLevels

/// `play`: the instrument running live. Composes the parts: the devices (the engine runs at what
/// the playback device negotiated), the renderer and the ALSA push loop on a render thread, the
/// sequencer client, the control socket, the song, then the control loop on this thread until
/// SIGINT/SIGTERM, and the shutdown.
final class LiveSession {
    let loader: InstrumentLoader
    let options: LiveOptions
    let devices: LiveDevices
    private let stop = StopSignal()
    private let isTerminal = isatty(STDOUT_FILENO) == 1
    /// Under a `Type=notify` systemd unit: READY=1 once MIDI and playback are open, STATUS=, STOPPING=1.
    private let notifier = SystemdNotifier()

    init(loader: InstrumentLoader, options: LiveOptions) {
        self.loader = loader
        self.options = options
        devices = LiveDevices(options: options)
    }

    /// The playback device, waited for (with back-off) until it opens; nil when SIGINT/SIGTERM came first.
    func waitForOutput() -> LiveDevices.OpenedOutput? {
        stop.install()
        let opened = devices.waitForOutput(stop: stop) { [notifier, isTerminal] line in
            notifier?.send("STATUS=\(line)")
            if isTerminal { FileHandle.standardOutput.write(Data("\r\(line)\u{1B}[K".utf8)) }
        }
        if isTerminal, opened == nil { print() }
        return opened
    }

    /// Runs until stopped; returns the process exit status.
    func run(_ opened: LiveDevices.OpenedOutput) throws -> Int32 {
        let (rate, period) = (opened.rate, opened.period)
        let input = try devices.openInput(rate: rate, period: period)
        LiveLog.line("playback: \(opened.description)")
        let renderer = try makeRenderer(rate: rate, period: period)
        if let input { LiveLog.line("capture: \(input.description)") }
        let loop = AudioLoop(renderer: renderer, output: opened.device, input: input?.source)
        let sequencer = MIDIInput.start(options: options, inbox: renderer.inbox)
        let status = StatusSource(renderer: renderer, devices: DeviceDescriptions(
            playback: opened.description, capture: input?.description, realtime: "starting",
            sampler: loader.presetPath.map { ($0 as NSString).lastPathComponent } ?? "none"))
        let driver = PushDriver(loop: loop, priority: options.realtimePriority) { [devices] in
            let device = devices.reopenOutput(rate: rate, period: period)
            if let device { status.update { $0.playback = device.description } }
            return device
        }
        let realtime = try driver.start()
        status.update { $0.realtime = realtime.description }
        LiveLog.line("audio thread: \(realtime)")
        let service = ControlService(renderer: renderer, status: status)
        let server = try? ControlServer(path: ControlSocket.defaultPath) { ControlProtocol.answer($0, service: service) }
        server?.start()
        if server == nil { LiveLog.line("control socket unavailable: `audiograph set/status` will not reach this instance") }
        let age = ProcessAge.seconds()
        if let age { LiveLog.line(String(format: "ready in %.0f ms (exec → MIDI port and PCM open)", age * 1000)) }
        let panel = try options.panel.map { spec in
            let backend = ServicePanelBackend(service: service, midiSources: midiSourceNames, startupMilliseconds: age.map { $0 * 1000 })
            return try PanelLauncher.start(spec, backend: backend) { LiveLog.line($0) }
        }
        if let panel { status.update { $0.panel = panel.description } }
        stop.install()
        let song = try options.songPath.map { path throws in try SongFeeder(path: path, inbox: renderer.inbox) }
        song?.start()
        notifier?.send("READY=1", "STATUS=playing: \(opened.description)")

        ControlLoop(controller: renderer.controller, status: status, driver: driver, stop: stop, notifier: notifier, isTerminal: isTerminal,
                    statusInterval: isTerminal ? options.statusInterval : 10, durationSeconds: options.durationSeconds, song: song).run()

        notifier?.send("STOPPING=1")
        // Fade out (10 ms ramp), let it reach the device, then stop everything.
        renderer.controller.fadeOut()
        usleep(25_000)
        driver.stop()
        sequencer?.stop()
        server?.shutdown()
        panel?.server.stop()
        if isTerminal { print() }
        LiveLog.line("stopped: \(status.snapshot().line)")
        return 0
    }

    /// What the panel lists as MIDI in: the ports asked for, and autoconnect when it is on.
    private var midiSourceNames: [String] {
        options.connect + (options.autoconnect != nil ? ["autoconnect (local sources)"] : [])
    }

    /// The engine at the device's rate and period, ready without band-limited levels (a background
    /// thread builds and publishes them), warmed up, in its renderer.
    private func makeRenderer(rate: Int, period: Int) throws -> PeriodRenderer {
        var loader = self.loader
        loader.levels = .byNeed
        let engine = try loader.makeEngine(configuration: EngineConfiguration(sampleRate: Double(rate), maxFrames: period))
        let levels = engine.programBank.map { bank in
            LevelPublisher.start(bank) { LiveLog.line("band-limited levels: every region built") }
        }
        if let levels { LiveLog.line("band-limited levels: \(levels.regionsAwaitingLevels) regions building in the background") }
        let renderer = PeriodRenderer(engine: engine, inbox: MIDIInbox(log: { LiveLog.line($0) }), periodFrames: period)
        renderer.warmUp()
        return renderer
    }
}
