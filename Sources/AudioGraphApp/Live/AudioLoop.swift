import ALSAIO
import Synchronization
import DSP
import Engine
import Foundation
import MIDI

/// The real-time render loop: per period, read the input, place the MIDI that arrived during the
/// previous period at the matching frames (constant latency of one period, no jitter inside it),
/// render, write. Runs on the render thread; everything it touches was allocated before `run()`.
/// When the playback device is lost, `run()` returns and the control thread takes over
/// (`OutageRecovery`): the render thread never opens, closes or waits for a device itself.
///
/// Generic over its devices, so the calls made every period are direct, not through an
/// existential. The engine is handed over (`sending`) at init: from then on only the thread that
/// runs the loop renders — the audio thread, or the control thread while the audio thread is not
/// running (an outage) — which is why the loop may be `@unchecked Sendable`; other threads use
/// `controller`.
final class AudioLoop<Output: AudioOutput, Input: AudioInput>: @unchecked Sendable {
    private let engine: AudioEngine
    /// What other threads may use while the loop runs.
    let controller: EngineController
    let inbox: MIDIInbox
    let periodFrames: Int
    let sampleRate: Double
    /// nil while the device is lost (closed at once, so the kernel can remove the card).
    private var output: Output?
    private let input: Input?

    let stats = LoopStatistics()
    private let running = Atomic<Bool>(true)
    /// Set by the render thread when `run()` returned because the device went away.
    let outputLost = Atomic<Bool>(false)
    /// Why it went away: the negative errno of the failed transfer (read with `outputLost`).
    let lostCode = Atomic<Int32>(0)
    private let outputBuffer: StereoBuffer
    private let inputBuffer: StereoBuffer
    /// This period's MIDI, bounded (`PeriodEvents`).
    let events: PeriodEvents
    /// Underruns counted by devices used before the current one (whoever owns `output` owns this).
    private var xrunsOfEarlierDevices = 0

    init(engine: sending AudioEngine, inbox: MIDIInbox, periodFrames: Int, output: Output, input: Input?) {
        controller = engine.controller
        sampleRate = engine.configuration.sampleRate
        self.engine = engine
        self.inbox = inbox
        self.periodFrames = periodFrames
        self.output = output
        self.input = input
        outputBuffer = StereoBuffer(capacity: periodFrames)
        inputBuffer = StereoBuffer(capacity: periodFrames)
        events = PeriodEvents(periodFrames: periodFrames)
    }

    /// Any thread: the loop finishes its current period and returns.
    func stop() { running.store(false, ordering: .relaxed) }

    var isRunning: Bool { running.load(ordering: .relaxed) }

    /// Render thread. Returns after `stop()`, or when the playback device is lost (`outputLost`).
    func run() {
        var clock = PeriodClock(periodNanoseconds: Double(periodNanoseconds), now: MonotonicClock.nanoseconds())
        while running.load(ordering: .relaxed) {
            if !runPeriod(clock: &clock) {
                outputLost.store(true, ordering: .releasing)
                return
            }
        }
    }

    var periodNanoseconds: UInt64 { UInt64(Double(periodFrames) / sampleRate * 1e9) }

    /// One period: read the input, place the MIDI that arrived, render, write. Render thread.
    /// Returns false when the playback device is gone.
    func runPeriod(clock: inout PeriodClock) -> Bool {
        guard let output else { return false }
        let out = outputBuffer.block(frames: periodFrames)
        var inputBlock: StereoBlock?
        if let input {
            let block = inputBuffer.block(frames: periodFrames)
            _ = input.read(left: block.left, right: block.right, frames: periodFrames)
            inputBlock = block
        }
        let start = MonotonicClock.nanoseconds()
        let periodStart = UInt64(clock.boundary)
        clock.advance(wokeAt: start)
        // Messages that arrived after the smoothed boundary wait for the next period.
        let midi = events.collect(live: inbox.ring, song: inbox.songRing, arrivedBefore: min(UInt64(clock.boundary), start), periodStart: periodStart, periodFrames: periodFrames)
        engine.render(output: out, input: inputBlock, events: midi)
        let renderNanoseconds = MonotonicClock.nanoseconds() - start
        stats.record(renderNanoseconds: renderNanoseconds, periodNanoseconds: periodNanoseconds)
        let status = output.write(left: out.left, right: out.right, frames: periodFrames)
        // Published here, not read from `output` by the status thread: the control thread
        // replaces `output` during a device outage.
        stats.xruns.store(xrunsOfEarlierDevices + output.xrunCount, ordering: .relaxed)
        if case .deviceLost(let code) = status {
            lostCode.store(code, ordering: .relaxed)
            stats.deviceLosses.wrappingAdd(1, ordering: .relaxed)
            return false
        }
        return true
    }

    /// While there is no device (control thread, render thread not running): renders one period
    /// into nowhere, applying the MIDI that arrived since `periodStart`, so no note-off is lost.
    func renderWithoutOutput(periodStart: UInt64, now: UInt64) {
        let midi = events.collect(live: inbox.ring, song: inbox.songRing, arrivedBefore: now, periodStart: periodStart, periodFrames: periodFrames)
        engine.render(output: outputBuffer.block(frames: periodFrames), events: midi)
    }

    /// Control thread, before the loop runs or after it returned: voices sounding in the synth and the sampler.
    var activeVoiceCounts: (synth: Int, sampler: Int) { engine.activeVoiceCounts }

    /// Control thread, render thread not running: lets go of the lost device at once, so it is
    /// closed (the kernel cannot finish removing a card while a handle on it stays open).
    func dropLostOutput() {
        guard let output else { return }
        xrunsOfEarlierDevices += output.xrunCount
        output.close()
        self.output = nil
    }

    /// Control thread, render thread not running: plays on `device` from now on.
    func replaceOutput(_ device: Output) {
        output = device
        outputLost.store(false, ordering: .relaxed)
        stats.reopens.wrappingAdd(1, ordering: .relaxed)
    }
}

/// Render-time figures the render thread publishes for the status line and the soak report.
final class LoopStatistics: @unchecked Sendable {
    let periods = Atomic<Int>(0)
    /// Periods whose render took longer than the period itself.
    let missedDeadlines = Atomic<Int>(0)
    let lastRenderNanoseconds = Atomic<UInt64>(0)
    let worstRenderNanoseconds = Atomic<UInt64>(0)
    let deviceLosses = Atomic<Int>(0)
    /// Underruns of every playback device so far (published by the render thread each period).
    let xruns = Atomic<Int>(0)
    let reopens = Atomic<Int>(0)

    func record(renderNanoseconds: UInt64, periodNanoseconds: UInt64) {
        periods.wrappingAdd(1, ordering: .relaxed)
        lastRenderNanoseconds.store(renderNanoseconds, ordering: .relaxed)
        if renderNanoseconds > worstRenderNanoseconds.load(ordering: .relaxed) {
            worstRenderNanoseconds.store(renderNanoseconds, ordering: .relaxed)
        }
        if renderNanoseconds > periodNanoseconds { missedDeadlines.wrappingAdd(1, ordering: .relaxed) }
    }
}
