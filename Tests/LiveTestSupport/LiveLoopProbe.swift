import ALSAIO
import AudioGraphApp
import Engine
import Foundation
import LiveControl
import LiveLoop
import MIDI

/// The live loop driven by hand, for tests that count allocations or hunt races without a sound
/// card: exactly `play`'s per-period work (`AudioLoop.runPeriod`: input, MIDI placement, render,
/// output) on ALSA's `null` PCM, which takes every period at once, with a looped buffer as input.
/// `receive` (one producer thread), `runPeriods` (one render thread) and `controlRequest` (any
/// thread) may run concurrently, like the sequencer, render and control socket threads.
///
/// `@unchecked Sendable`: `runPeriods` and the output it closes belong to the thread that calls it
/// (and to the recovery thread it starts and joins); the rest is immutable or thread-safe.
public final class LiveLoopProbe: @unchecked Sendable {
    private let loop: AudioLoop
    private let renderer: PeriodRenderer
    /// What every control front end uses (the socket's protocol answers through it).
    public let service: ControlService
    private var output: PCMDevice
    private let loseOutputAtPeriod: Int?
    private var periodsRun = 0
    private var control: ControlServer?

    /// Control thread: builds the loop around `engine` (whose maxFrames must be ≥ `periodFrames`),
    /// which the probe takes over: the thread calling `runPeriods` is its render thread. With
    /// `loseOutputAtPeriod`, the output device goes away at that period (it is closed, so the
    /// write reports it lost), and the first reopen attempt fails too (a device that takes a
    /// while to come back).
    public init(engine: sending AudioEngine, periodFrames: Int, input: [Float]?, loseOutputAtPeriod: Int? = nil) throws {
        let rate = Int(engine.configuration.sampleRate)
        output = try PCMDevice(Self.nullPlayback(rate: rate, period: periodFrames))
        self.loseOutputAtPeriod = loseOutputAtPeriod
        renderer = PeriodRenderer(engine: engine, inbox: MIDIInbox(log: { _ in }), periodFrames: periodFrames)
        loop = AudioLoop(renderer: renderer, output: .alsa(output), input: input.map { .looped(LoopedInput(left: $0, right: nil)) })
        let status = StatusSource(renderer: renderer, devices: DeviceDescriptions(
            playback: "probe", capture: input == nil ? nil : "probe input", realtime: "probe", sampler: "probe"))
        service = ControlService(renderer: renderer, status: status)
    }

    static func nullPlayback(rate: Int, period: Int) -> PCMRequest {
        PCMRequest(deviceName: "null", direction: .playback, sampleRateHz: rate, periodFrames: period, periodCount: 3)
    }

    /// The sequencer thread's side: a message arriving now, from `source`.
    public func receive(_ message: MIDIMessage, fromClient client: UInt8 = 20) {
        renderer.inbox.receive(.message(message, source: SequencerAddress(client: client, port: 0),
                                        arrivalNanoseconds: MonotonicClock.nanoseconds()))
    }

    /// The sequencer thread's side: `client` went away (its held notes are released).
    public func sourceGone(client: UInt8 = 20) {
        renderer.inbox.receive(.sourceGone(SequencerAddress(client: client, port: 0)))
    }

    /// The sequencer thread's side: a one-shot command client (`audiograph cc …`) exited.
    public func commandSenderGone(client: UInt8) {
        renderer.inbox.receive(.commandSenderGone(SequencerAddress(client: client, port: 0)))
    }

    /// `play`'s control socket (set/get/status, with its limits) at `path`, answering for this loop,
    /// until `stopControlSocket()`.
    public func startControlSocket(path: String) throws {
        control = try ControlServer(path: path) { [service] in ControlProtocol.answer($0, service: service) }
        control?.start()
    }

    public func stopControlSocket() {
        control?.shutdown()
        control = nil
    }

    /// The control socket's side: one request (`status`, `status --json`, `set a=b`, `get name`)
    /// answered exactly as `play` answers it. Any thread, concurrently with the other two sides.
    public func controlRequest(_ request: String) -> String { ControlProtocol.answer(request, service: service) }

    /// What other threads may use (parameters, meters, control work).
    public var controller: EngineController { renderer.controller }

    /// Voices sounding in the synth and the sampler. The thread that calls `runPeriods`, between calls.
    public var activeVoiceCounts: (synth: Int, sampler: Int) { renderer.activeVoiceCounts }

    /// Times the output was lost, and reopened.
    public var deviceLosses: Int { renderer.stats.deviceLosses.load(ordering: .relaxed) }
    public var reopens: Int { renderer.stats.reopens.load(ordering: .relaxed) }

    /// The render thread's side: `count` periods. When the output is lost, the outage is handed to a
    /// second thread, as `play` hands it to its control thread (`PushDriver`): it renders on without
    /// a device and reopens with back-off; this thread waits for it, then plays on.
    public func runPeriods(_ count: Int) {
        for _ in 0..<count {
            periodsRun += 1
            if periodsRun == loseOutputAtPeriod { output.close() }
            if !loop.runPeriod() { recoverOnAnotherThread() }
        }
    }

    private func recoverOnAnotherThread() {
        let loop = self.loop
        let request = Self.nullPlayback(rate: Int(renderer.sampleRate), period: renderer.periodFrames)
        let (thread, _) = try! RealtimeThread.start(name: "probe-control", priority: nil, lockMemory: false) {
            var attempts = 0
            var outage = loop.beginOutage(now: MonotonicClock.nanoseconds())
            let reopen = { () -> PlaybackDevice? in
                attempts += 1
                return attempts >= 2 ? (try? PCMDevice(request)).map { .alsa($0) } : nil
            }
            while !loop.serviceOutage(&outage, now: MonotonicClock.nanoseconds(), reopen: reopen) { usleep(2000) }
        }
        thread.join()
        renderer.restartClock()
    }
}
