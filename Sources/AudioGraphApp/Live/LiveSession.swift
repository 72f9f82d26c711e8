import ALSAIO
import Engine
import Foundation
import JACKIO
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
    let stop: StopSignal
    private let isTerminal = isatty(STDOUT_FILENO) == 1
    /// Under a `Type=notify` systemd unit: READY=1 once MIDI and playback are open, STATUS=, STOPPING=1.
    let notifier = SystemdNotifier()
    /// Builds the band-limited levels in the background (struck regions first) while the session runs.
    private var levelPublisher: LevelPublisher?

    /// `stop`: shared by the sessions of one process (a JACK rate change starts a new one): the
    /// signal sources are installed once, so SIGINT reaches whichever session runs.
    init(loader: InstrumentLoader, options: LiveOptions, stop: StopSignal = StopSignal()) {
        self.loader = loader
        self.options = options
        self.stop = stop
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

    /// What `play` plays on: an ALSA playback device (the push loop) or a JACK client (the process callback).
    enum Playback {
        case alsa(LiveDevices.OpenedOutput)
        case jack(JACKClient)
    }

    /// Runs until stopped; returns the process exit status.
    func run(_ opened: LiveDevices.OpenedOutput) throws -> Int32 { try run(.alsa(opened)) }

    /// Runs until stopped; returns the process exit status, or `restartForNewRate` when a JACK
    /// server changed its sample rate and the session must start again at the new one.
    func run(_ playback: Playback) throws -> Int32 {
        let renderer: PeriodRenderer, input: (CaptureSource, String)?, description: String, audioServer: String
        var capture: String?
        // The sequencer's reader stamps every note's arrival: it must wake as promptly as the
        // render thread, just below it — JACK's process thread under the JACK driver, whatever
        // priority the server gives its clients (never above it: it would preempt the cycle).
        let readerPriority: Int32?
        switch playback {
        case .alsa(let opened):
            input = try devices.openInput(rate: opened.rate, period: opened.period)
            capture = input?.1
            description = opened.description
            audioServer = opened.audioServer
            renderer = try makeRenderer(rate: opened.rate, period: opened.period, maxFrames: opened.period)
            readerPriority = options.realtimePriority.map { max($0 - 5, 1) }
        case .jack(let client):
            // Prepared for any buffer size JACK may switch to live, so a change allocates nothing.
            input = nil
            capture = client.inputPortNames.isEmpty ? nil : "JACK ports " + client.inputPortNames.joined(separator: ", ")
            if let midi = client.midiInputPortName { LiveLog.line("JACK MIDI in: \(midi) (applied at the frame each event arrives on)") }
            description = JACKDriver.describe(client)
            audioServer = "JACK (native client)"
            renderer = try makeRenderer(rate: client.sampleRate, period: min(client.bufferSize, Self.jackMaxFrames), maxFrames: Self.jackMaxFrames)
            readerPriority = options.realtimePriority == nil ? nil : client.processThreadPriority.map { max($0 - 1, 1) }
        }
        let (rate, period) = (Int(renderer.sampleRate), renderer.periodFrames)
        LiveLog.line("playback: \(description)")
        if let capture { LiveLog.line("capture: \(capture)") }
        let sequencer = MIDIInput.start(options: options, priority: readerPriority, inbox: renderer.inbox)
        let status = StatusSource(renderer: renderer, devices: DeviceDescriptions(
            playback: description, capture: capture, realtime: "starting",
            sampler: loader.presetPath.map { ($0 as NSString).lastPathComponent } ?? "none", audioServer: audioServer), sequencer: sequencer)
        let driver: LiveDriver
        switch playback {
        case .alsa(let opened):
            let loop = AudioLoop(renderer: renderer, output: opened.device, input: input?.0)
            let push = PushDriver(loop: loop, priority: options.realtimePriority, backoff: devices.reopenBackoff) { [devices] in
                let device = devices.reopenOutput(rate: rate, period: period)
                if let device { status.update { $0.playback = device.description } }
                return device
            }
            let realtime = try push.start()
            status.update { $0.realtime = realtime.description }
            LiveLog.line("audio thread: \(realtime)")
            driver = push
        case .jack(let client):
            let jack = JACKDriver(client: client, target: JACKRenderTarget(renderer: renderer, maxFrames: Self.jackMaxFrames),
                                  connect: options.jackConnect, status: status)
            try jack.start()
            // JACK starts the process thread; its pages are locked here, as the push driver's are.
            let memory = options.realtimePriority != nil ? RealtimeThread.lockMemory() : (locked: false, problems: [])
            let realtime = (["JACK's process thread, memory " + (memory.locked ? "locked" : "not locked")] + memory.problems)
                .joined(separator: "\n  ")
            status.update { $0.realtime = realtime }
            LiveLog.line("audio thread: \(realtime)")
            driver = jack
        }
        let service = ControlService(renderer: renderer, status: status)
        let server: ControlServer?
        do {
            server = try ControlServer { ControlProtocol.answer($0, service: service) }
        } catch let another as ControlServer.AnotherInstance {
            throw another
        } catch {
            server = nil
            LiveLog.line("control socket unavailable (\(error)): `audiograph set/status` will not reach this instance")
        }
        server?.start()
        let age = ProcessAge.seconds()
        if let age { LiveLog.line(String(format: "ready in %.0f ms (exec → MIDI port and PCM open)", age * 1000)) }
        let panel = try options.panel.map { spec in
            let backend = ServicePanelBackend(service: service, startupMilliseconds: age.map { $0 * 1000 })
            return try PanelLauncher.start(spec, backend: backend) { LiveLog.line($0) }
        }
        if let panel { status.update { $0.panel = panel.description } }
        stop.install()
        let song = try options.songPath.map { path throws in try SongFeeder(path: path, inbox: renderer.inbox) }
        song?.start()
        notifier?.send("READY=1", "STATUS=playing: \(description)")

        ControlLoop(controller: renderer.controller, status: status, driver: driver, stop: stop, notifier: notifier, isTerminal: isTerminal,
                    statusInterval: isTerminal ? options.statusInterval : 10, durationSeconds: options.durationSeconds, song: song).run()

        notifier?.send("STOPPING=1")
        // Fade out (10 ms ramp), let it reach the device, then stop everything.
        renderer.controller.fadeOut()
        usleep(25_000)
        driver.stop()
        sequencer?.stop()
        server?.shutdown()
        levelPublisher?.stop()
        panel?.server.stop()
        if isTerminal { print() }
        LiveLog.line("stopped: \(status.snapshot().line)")
        if let jack = driver as? JACKDriver, jack.newSampleRate != nil { return Self.restartForNewRate }
        return 0
    }

    /// `run`'s answer when JACK's sample rate changed under it: open a new client and run again.
    static let restartForNewRate: Int32 = -1
    /// The engine's block for the JACK driver: above any buffer size JACK is run with live
    /// (a larger one is rendered in pieces); costs under a megabyte more than a 256-frame engine.
    static let jackMaxFrames = 4096

    /// The engine at the device's rate and period, ready without band-limited levels (a background
    /// thread builds and publishes them), warmed up, in its renderer.
    private func makeRenderer(rate: Int, period: Int, maxFrames: Int) throws -> PeriodRenderer {
        LargeBlocks.returnWhenFreed()
        var loader = self.loader
        loader.levels = .byNeed
        loader.soundFontSamples = .onNeed
        let engine = try loader.makeEngine(configuration: EngineConfiguration(sampleRate: Double(rate), maxFrames: maxFrames))
        // A SoundFont's whole-font levels would take gigabytes: only what is played gets them.
        let soundFont = loader.soundFontOverride != nil || loader.file.soundfont != nil
        levelPublisher = engine.programBank.map { bank in
            LevelPublisher.start(
                bank, prefetch: !soundFont,
                finished: { report in
                    LiveLog.line(report.unfit == 0 ? "band-limited levels: every region built"
                        : "band-limited levels: \(report.published) regions built; \(report.unfit) more wait for a note (the level budget is full)")
                },
                log: { LiveLog.line($0) })
        }
        if let levelPublisher, levelPublisher.startPreparation.prepared + levelPublisher.startPreparation.unprepared > 0 {
            let read = levelPublisher.startPreparation
            LiveLog.line(String(
                format: "sample data: %.1f MB read for the start programs' %d regions in %.0f ms%@ (budget %@, --sample-memory); the rest on need",
                Double(read.bytes) / 1_048_576, read.prepared, read.milliseconds,
                read.unprepared > 0 ? ", \(read.unprepared) left silent" : "", LevelBudget.describe(LevelStore.shared.sampleBudget.limitBytes)))
        }
        if let levelPublisher {
            LiveLog.line("band-limited levels: \(levelPublisher.regionsAwaitingLevels) regions "
                + (soundFont ? "built in the background as they are played" : "building in the background")
                + " (budget \(LevelStore.shared.budget.limitBytes >> 20) MB)")
        }
        let renderer = PeriodRenderer(engine: engine, inbox: MIDIInbox(log: { LiveLog.line($0) }), periodFrames: period)
        renderer.warmUp()
        return renderer
    }
}
