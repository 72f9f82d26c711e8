import ALSAIO
import Synchronization
import AudioFiles
import Engine
import Foundation
import MIDI

/// The live loop's per-period work driven by hand: exactly what the render thread does each period
/// (input, MIDI placement, render, output) minus the wait for a device — the output discards and
/// the input is a looped buffer. For tests that count allocations without a sound card.
/// `receive` (one producer thread) and `runPeriods` (one consumer thread) may run concurrently, like the
/// sequencer and render threads.
public final class LiveLoopProbe: @unchecked Sendable {
    private let loop: AudioLoop<DiscardingOutput, FileInput>
    private var clock: PeriodClock
    private let reopen: () -> DiscardingOutput?
    private let inputName: String?
    private var control: ControlServer?

    /// Control thread: builds the loop around `engine` (whose maxFrames must be ≥ `periodFrames`),
    /// which the probe takes over: the thread calling `runPeriods` is its render thread.
    /// With `loseOutputAtPeriod`, the output reports the device gone at that period and the first
    /// reopen attempt fails too (a device that takes a while to come back).
    public init(engine: sending AudioEngine, periodFrames: Int, input: [Float]?, loseOutputAtPeriod: Int? = nil) {
        let rate = engine.configuration.sampleRate
        let source = input.map {
            FileInput(DecodedAudio(sampleRate: rate, channels: [$0], frameCount: $0.count,
                                   metadata: SampleMetadata(), formatDescription: "probe input"))
        }
        inputName = input == nil ? nil : "probe input"
        let output = DiscardingOutput(loseAtWrite: loseOutputAtPeriod)
        var attempts = 0
        reopen = {
            attempts += 1
            return attempts >= 2 ? DiscardingOutput(loseAtWrite: nil) : nil
        }
        loop = AudioLoop(engine: engine, inbox: MIDIInbox(log: { _ in }), periodFrames: periodFrames, output: output, input: source)
        clock = PeriodClock(periodNanoseconds: Double(loop.periodNanoseconds), now: MonotonicClock.nanoseconds())
    }

    /// The sequencer thread's side: a message arriving now, from `source`.
    public func receive(_ message: MIDIMessage, fromClient client: UInt8 = 20) {
        loop.inbox.receive(.message(message, source: SequencerAddress(client: client, port: 0),
                                    arrivalNanoseconds: MonotonicClock.nanoseconds()))
    }

    /// The sequencer thread's side: `client` went away (its held notes are released).
    public func sourceGone(client: UInt8 = 20) {
        loop.inbox.receive(.sourceGone(SequencerAddress(client: client, port: 0)))
    }

    /// The sequencer thread's side: a one-shot command client (`audiograph cc …`) exited.
    public func commandSenderGone(client: UInt8) {
        loop.inbox.receive(.commandSenderGone(SequencerAddress(client: client, port: 0)))
    }

    /// `play`'s control socket (set/get/status, with its limits) at `path`, answering for this loop,
    /// until `stopControlSocket()`.
    public func startControlSocket(path: String) throws {
        control = try ControlServer(path: path) { [self] in controlRequest($0) }
        control?.start()
    }

    public func stopControlSocket() {
        control?.shutdown()
        control = nil
    }

    /// Times the output was lost, and reopened.
    /// The control socket's side: one request (`status`, `status --json`, `set a=b`, `get name`)
    /// answered exactly as `play` answers it. Any thread, concurrently with the other two sides.
    public func controlRequest(_ request: String) -> String {
        let loop = self.loop, engine = loop.controller, inputName = self.inputName
        return LiveSession.answer(request, engine: engine) {
            LiveSession.snapshot(
                engine: engine, statistics: loop.stats, periodFrames: loop.periodFrames, inbox: loop.inbox, events: loop.events,
                output: "probe", input: inputName, realtime: "probe", sampler: "probe")
        }
    }

    /// What other threads may use (parameters, meters, control work).
    public var controller: EngineController { loop.controller }

    /// Voices sounding in the synth and the sampler. The thread that calls `runPeriods`, between calls.
    public var activeVoiceCounts: (synth: Int, sampler: Int) { loop.activeVoiceCounts }

    public var deviceLosses: Int { loop.stats.deviceLosses.load(ordering: .relaxed) }
    public var reopens: Int { loop.stats.reopens.load(ordering: .relaxed) }

    /// The render thread's side: `count` periods. If the output is lost, the control thread's side
    /// (as `play` does it: render on without a device, reopen with back-off) runs until it is back.
    public func runPeriods(_ count: Int) {
        for _ in 0..<count where !loop.runPeriod(clock: &clock) {
            var recovery = OutageRecovery(loop, now: MonotonicClock.nanoseconds())
            while recovery.service(loop, now: MonotonicClock.nanoseconds(), reopen: reopen) == nil { usleep(2000) }
            clock = PeriodClock(periodNanoseconds: Double(loop.periodNanoseconds), now: MonotonicClock.nanoseconds())
        }
    }
}
