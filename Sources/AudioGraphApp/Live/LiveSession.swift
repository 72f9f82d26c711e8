import ALSAIO
import Synchronization
import AudioFiles
import DSP
import Engine
import Foundation
import MIDI
import Sampler
import SamplerLevels

/// `play`: the instrument running live. Opens the devices (the engine runs at what ALSA
/// negotiated), starts the sequencer client, the render thread and the control socket,
/// then serves status and program changes from the main thread until SIGINT/SIGTERM.
final class LiveSession: @unchecked Sendable {
    let loader: InstrumentLoader
    let options: LiveOptions
    private let stopRequested = Atomic<Bool>(false)
    private let isTerminal = isatty(STDOUT_FILENO) == 1
    /// Under a `Type=notify` systemd unit: READY=1 once MIDI and playback are open, STATUS=, STOPPING=1.
    private let notifier = SystemdNotifier()

    init(loader: InstrumentLoader, options: LiveOptions) {
        self.loader = loader
        self.options = options
    }

    static func log(_ text: String) {
        FileHandle.standardError.write(Data("audiograph: \(text)\n".utf8))
    }

    /// A playback device as opened, with what it negotiated (the engine runs at that rate and period).
    struct OpenedOutput {
        var device: AudioOutput
        var description: String
        var rate: Int
        var period: Int
    }

    /// Opens the playback device (or the paced null device), so the caller can fall back to an
    /// offline render when there is no sound card.
    func openOutput() throws -> OpenedOutput {
        if options.device == "paced" {
            let device = PacedNullDevice(sampleRateHz: options.rate, periodFrames: options.periodFrames, bufferPeriods: options.periods)
            return OpenedOutput(device: device, description: "paced null device (clock_nanosleep), \(options.rate) Hz, period \(options.periodFrames)",
                                rate: options.rate, period: options.periodFrames)
        }
        let request = PCMRequest(deviceName: options.device, direction: .playback, sampleRateHz: options.rate,
                                 channels: 2, periodFrames: options.periodFrames, periodCount: options.periods)
        do {
            let device = try PCMDevice(request)
            let c = device.configuration
            return OpenedOutput(device: device, description: c.description, rate: c.sampleRateHz, period: c.periodFrames)
        } catch {
            throw InstrumentError("cannot open playback device '\(options.device)': \(error)")
        }
    }

    /// `play` started before its device exists (a USB interface plugged in after boot): retries
    /// `openOutput` with back-off (100 ms doubling to 5 s), saying so, until the device opens;
    /// nil when SIGINT/SIGTERM came first.
    func waitForOutput() -> OpenedOutput? {
        installSignalHandlers()
        var backoff = ReopenBackoff()
        var lastError = ""
        while !stopRequested.load(ordering: .relaxed) {
            do {
                let opened = try openOutput()
                if backoff.attempts > 0 { Self.log("playback device '\(options.device)' is here") }
                return opened
            } catch {
                let delay = backoff.nextDelaySeconds()
                let line = "waiting for playback device '\(options.device)' (attempt \(backoff.attempts), next in \(delay) s)"
                if "\(error)" != lastError {
                    lastError = "\(error)"
                    Self.log("\(lastError); \(line)")
                }
                notifier?.send("STATUS=\(line)")
                if isTerminal { FileHandle.standardOutput.write(Data("\r\(line)\u{1B}[K".utf8)) }
                let until = Date(timeIntervalSinceNow: delay)
                while Date() < until, !stopRequested.load(ordering: .relaxed) { usleep(10_000) }
            }
        }
        if isTerminal { print() }
        return nil
    }

    /// Runs until stopped; returns the process exit status.
    func run(_ opened: OpenedOutput) throws -> Int32 {
        // Opens the existential once, here: the loop is specialised for the device types.
        func play<Output: AudioOutput>(_ output: Output) throws -> Int32 {
            let (input, inputDescription) = try openInput(rate: opened.rate, period: opened.period)
            if let input {
                func withInput<Input: AudioInput>(_ input: Input) throws -> Int32 {
                    try run(opened, output: output, input: input, inputDescription: inputDescription)
                }
                return try withInput(input)
            }
            return try run(opened, output: output, input: FileInput?.none, inputDescription: nil)
        }
        return try play(opened.device)
    }

    private func run<Output: AudioOutput, Input: AudioInput>(_ opened: OpenedOutput, output: Output, input: Input?,
                                                             inputDescription: String?) throws -> Int32 {
        let (outputDescription, rate, period) = (opened.description, opened.rate, opened.period)
        Self.log("playback: \(outputDescription)")
        // Ready without band-limited levels: a background thread builds and publishes them.
        var loader = self.loader
        loader.levels = .byNeed
        let engine = try loader.makeEngine(configuration: EngineConfiguration(sampleRate: Double(rate), maxFrames: period))
        let levels = engine.programBank.map { bank in
            LevelPublisher.start(bank) { Self.log("band-limited levels: every region built") }
        }
        if let levels { Self.log("band-limited levels: \(levels.regionsAwaitingLevels) regions building in the background") }
        if let inputDescription { Self.log("capture: \(inputDescription)") }
        let inbox = MIDIInbox(log: { Self.log($0) })
        let reopen: () -> Output? = { [options] in
            guard Output.self == PCMDevice.self else { return nil }
            return try? PCMDevice(PCMRequest(deviceName: options.device, direction: .playback, sampleRateHz: rate, channels: 2,
                                             periodFrames: period, periodCount: options.periods)) as? Output
        }
        Self.warmUp(engine, frames: period)
        // The render object goes to the loop (the audio thread); this thread keeps the controller.
        let loop = AudioLoop(engine: engine, inbox: inbox, periodFrames: period, output: output, input: input)
        let controller = loop.controller
        let sequencer = startSequencer(inbox: inbox)
        let (thread, realtime) = try RealtimeThread.start(name: "audiograph-rt", priority: options.realtimePriority) { loop.run() }
        var audioThread: ThreadHandle? = thread
        Self.log("audio thread: \(realtime)")
        let samplerName = loader.presetPath.map { ($0 as NSString).lastPathComponent } ?? "none"
        let stats = loop.stats, events = loop.events
        let status: @Sendable () -> StatusSnapshot = {
            Self.snapshot(engine: controller, statistics: stats, periodFrames: period, inbox: inbox, events: events, output: outputDescription,
                          input: inputDescription, realtime: realtime.description, sampler: samplerName)
        }
        let server = try? ControlServer { request in Self.answer(request, engine: controller, status: status) }
        server?.start()
        if server == nil { Self.log("control socket unavailable: `audiograph set/status` will not reach this instance") }
        if let age = ProcessAge.seconds() { Self.log(String(format: "ready in %.0f ms (exec → MIDI port and PCM open)", age * 1000)) }
        installSignalHandlers()
        let song = try options.songPath.map { path throws in try SongFeeder(path: path, inbox: inbox) }
        song?.start()
        notifier?.send("READY=1", "STATUS=playing: \(outputDescription)")

        serve(controller, song: song, status: status, loop: loop, audioThread: &audioThread, reopen: reopen)

        notifier?.send("STOPPING=1")
        // Fade out (10 ms ramp), let it reach the device, then stop everything.
        controller.fadeOut()
        usleep(25_000)
        loop.stop()
        audioThread?.join()
        sequencer?.stop()
        server?.shutdown()
        if isTerminal { print() }
        Self.log("stopped: \(status().line)")
        return 0
    }

    /// Renders a few silent periods before the render thread starts, so first-touch page
    /// faults and the sampler's program hand-over do not land on the first deadline.
    static func warmUp(_ engine: AudioEngine, frames: Int) {
        let scratch = StereoBuffer(capacity: frames)
        for _ in 0..<32 { engine.render(output: scratch.block(frames: frames)) }
    }

    private func openInput(rate: Int, period: Int) throws -> (AudioInput?, String?) {
        if let file = options.inputFile {
            let audio = try AudioFileReader.read(path: file, convertingTo: Double(rate), wholeFileLoops: true)
            return (FileInput(audio), "file \(file) (looped), \(audio.channels.count) channel(s)")
        }
        guard options.inputDevice != "none" else { return (nil, nil) }
        do {
            let device = try PCMDevice(PCMRequest(deviceName: options.inputDevice, direction: .capture, sampleRateHz: rate,
                                                  channels: 2, periodFrames: period, periodCount: options.periods))
            return (device, device.configuration.description)
        } catch {
            throw InstrumentError("cannot open capture device '\(options.inputDevice)': \(error)")
        }
    }

    private func startSequencer(inbox: MIDIInbox) -> SequencerClient? {
        do {
            let client = try SequencerClient(options: SequencerClientOptions(autoconnect: options.autoconnect, pollTimeoutMilliseconds: 20))
            // Arrival stamps are every note's timing reference: the reader must wake as promptly
            // as the render thread (just below it), or its scheduling delay becomes onset jitter.
            let reader = try client.start(priority: options.realtimePriority.map { max($0 - 5, 1) }) { inbox.receive($0) }
            Self.log("MIDI input: \(client.options.clientName):\(client.options.portName) at \(client.inputAddress)"
                     + (options.autoconnect != nil ? " (autoconnect on)" : "") + ", reader thread: \(reader)")
            for spec in options.connect {
                do {
                    let port = try client.connect(spec: spec)
                    Self.log("connected \(port.address) '\(port.clientName):\(port.portName)'")
                } catch {
                    Self.log("cannot connect '\(spec)': \(error)")
                }
            }
            return client
        } catch {
            Self.log("no ALSA sequencer (\(error)): MIDI input disabled; notes can still come from a song or the control socket")
            return nil
        }
    }

    private func installSignalHandlers() {
        guard signalSources.isEmpty else { return }
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [self] in stopRequested.store(true, ordering: .relaxed) }
            source.resume()
            signalSources.append(source)
        }
    }

    private var signalSources: [DispatchSourceSignal] = []

    /// The control thread's loop: garbage and ignored-note reports every 10 ms, status a few times a
    /// second on a terminal (a line every 10 s otherwise), until a signal, the duration, or the song's end.
    private func serve<Output, Input>(_ engine: EngineController, song: SongFeeder?, status: @Sendable () -> StatusSnapshot,
                                      loop: AudioLoop<Output, Input>, audioThread: inout ThreadHandle?, reopen: () -> Output?) {
        let parts = PartReport()
        var recovery: OutageRecovery?
        let start = Date()
        var lastStatus = Date.distantPast, lastNotified = Date.distantPast
        let statusInterval = isTerminal ? options.statusInterval : 10
        while !stopRequested.load(ordering: .relaxed) {
            usleep(10_000)
            engine.performControlWork()
            if loop.outputLost.load(ordering: .acquiring) {
                recover(loop, recovery: &recovery, audioThread: &audioThread, reopen: reopen)
            }
            for line in parts.newIgnoredNoteLines(engine) { Self.log(line) }
            if Date().timeIntervalSince(lastStatus) >= statusInterval {
                lastStatus = Date()
                if isTerminal {
                    FileHandle.standardOutput.write(Data("\r\(status().line)\u{1B}[K".utf8))
                } else {
                    Self.log(status().line)
                }
            }
            if let notifier, Date().timeIntervalSince(lastNotified) >= 1 {
                lastNotified = Date()
                notifier.send("STATUS=\(status().line)")
            }
            if let limit = options.durationSeconds, Date().timeIntervalSince(start) >= limit { break }
            // The song is over when its sound has died away; what never decays is cut (with the
            // fade-out below) after `SongEnd.maxTailSeconds`, as `render` cuts its tail.
            if let song, song.isFinished, engine.meters.isIdle || song.secondsSinceEnd > SongEnd.maxTailSeconds { break }
        }
    }

    /// The playback device is gone and the render thread has returned: render on from here (MIDI
    /// is still applied), reopen with back-off, then start a new render thread on the new device.
    private func recover<Output, Input>(_ loop: AudioLoop<Output, Input>, recovery: inout OutageRecovery?, audioThread: inout ThreadHandle?,
                                        reopen: () -> Output?) {
        let now = MonotonicClock.nanoseconds()
        if recovery == nil {
            audioThread?.join()
            audioThread = nil
            Self.log("playback device lost: reopening with back-off; MIDI is still applied meanwhile")
            recovery = OutageRecovery(loop, now: now)
        }
        guard recovery?.service(loop, now: now, reopen: reopen) != nil else { return }
        recovery = nil
        do {
            audioThread = try RealtimeThread.start(name: "audiograph-rt", priority: options.realtimePriority, lockMemory: false) { loop.run() }.0
            Self.log("playback device reopened")
        } catch {
            Self.log("playback device reopened, but the audio thread could not start: \(error)")
            stopRequested.store(true, ordering: .relaxed)
        }
    }

    /// Everything `status` shows. Any thread (the control socket's): reads only what the audio
    /// thread publishes through atomics.
    static func snapshot(engine: EngineController, statistics stats: LoopStatistics, periodFrames: Int, inbox: MIDIInbox, events: PeriodEvents, output: String,
                         input: String?, realtime: String, sampler: String) -> StatusSnapshot {
        let m = engine.meters, r = engine.micReadouts
        let periodNanoseconds = Double(periodFrames) / engine.configuration.sampleRate * 1e9
        let pitch = r.pitch.value
        return StatusSnapshot(
            outputPeakDecibels: [m.outputPeakDecibels.left, m.outputPeakDecibels.right],
            outputRMSDecibels: [m.outputRMSDecibels.left, m.outputRMSDecibels.right],
            inputPeakDecibels: input == nil ? nil : [Double(r.inputPeakDecibels.left.value), Double(r.inputPeakDecibels.right.value)],
            inputRMSDecibels: input == nil ? nil : [Double(r.inputRMSDecibels.left.value), Double(r.inputRMSDecibels.right.value)],
            detectedPitchHz: pitch.voiced ? pitch.frequencyHz : nil,
            pitchConfidence: pitch.voiced ? pitch.confidence : nil,
            dominantFrequencyHz: r.effect == .fft ? Double(r.dominantFrequencyHz.value) : nil,
            voices: m.activeVoices,
            xruns: stats.xruns.load(ordering: .relaxed),
            dspLoadPercent: 100 * Double(stats.lastRenderNanoseconds.load(ordering: .relaxed)) / periodNanoseconds,
            worstDspLoadPercent: 100 * Double(stats.worstRenderNanoseconds.load(ordering: .relaxed)) / periodNanoseconds,
            missedDeadlines: stats.missedDeadlines.load(ordering: .relaxed),
            midiEventsDropped: inbox.ring.droppedCount, midiInputOverruns: inbox.kernelOverruns.load(ordering: .relaxed),
            midiDeferredPeriods: events.deferredPeriods.load(ordering: .relaxed),
            midiEventsCoalesced: events.coalesced.load(ordering: .relaxed),
            midiNoteOnsSkipped: events.skippedNoteOns.load(ordering: .relaxed),
            nonFiniteBlocks: m.nonFiniteBlocks, runawayVoices: m.runawayVoices,
            regionsAwaitingLevels: engine.programBank?.programs.regionsAwaitingLevels ?? 0,
            playback: output, capture: input, realtime: realtime,
            sampler: sampler,
            parts: PartStatus.collect(engine))
    }

    /// One control-socket request: `set a=b c=d`, `get name`, `status`, `status --json`.
    static func answer(_ request: String, engine: EngineController, status: @Sendable () -> StatusSnapshot) -> String {
        let words = request.split(separator: " ").map(String.init)
        switch words.first {
        case "set":
            guard words.count > 1 else { return "error: set needs name=value" }
            for assignment in words.dropFirst() {
                do { try engine.parameters.apply(assignment: assignment) } catch { return "error: \(error)" }
            }
            return "ok"
        case "get":
            guard words.count == 2, let i = engine.parameters.index(of: words[1]) else { return "error: unknown parameter '\(ParameterError.excerpt(words.dropFirst().joined(separator: " ")))'" }
            return "ok \(words[1]) = \(engine.parameters.formattedValue(i))"
        case "status":
            return words.contains("--json") ? "ok\n" + status().json() : "ok " + status().line
        default:
            return "error: unknown request '\(ParameterError.excerpt(request))' (set, get, status)"
        }
    }
}
