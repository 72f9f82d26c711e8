import ALSAIO
import Atomics
import DSP
import Engine
import Foundation
import MIDI

/// The real-time render loop: per period, read the input, place the MIDI that arrived during the
/// previous period at the matching frames (constant latency of one period, no jitter inside it),
/// render, write. Runs on the audio thread; everything it touches was allocated before `run()`.
final class AudioLoop: @unchecked Sendable {
    let engine: AudioEngine
    let inbox: MIDIInbox
    let periodFrames: Int
    let sampleRate: Double
    private(set) var output: AudioOutput
    private(set) var input: AudioInput?
    /// Opens the playback device again after it was lost; nil when there is none to reopen.
    private let reopenOutput: (() -> AudioOutput?)?

    let stats = LoopStatistics()
    private let running = ManagedAtomic<Bool>(true)
    private let outputBuffer: StereoBuffer
    private let inputBuffer: StereoBuffer
    private let events: UnsafeMutableBufferPointer<TimedMIDIMessage>

    init(engine: AudioEngine, inbox: MIDIInbox, periodFrames: Int, output: AudioOutput, input: AudioInput?,
         reopenOutput: (() -> AudioOutput?)?) {
        self.engine = engine
        self.inbox = inbox
        self.periodFrames = periodFrames
        sampleRate = engine.configuration.sampleRate
        self.output = output
        self.input = input
        self.reopenOutput = reopenOutput
        outputBuffer = StereoBuffer(capacity: periodFrames)
        inputBuffer = StereoBuffer(capacity: periodFrames)
        events = .allocate(capacity: 1024)
    }

    deinit { events.deallocate() }

    /// Any thread: the loop finishes its current period and returns.
    func stop() { running.store(false, ordering: .relaxed) }

    /// Audio thread. Returns after `stop()`.
    func run() {
        var clock = PeriodClock(periodNanoseconds: Double(periodNanoseconds), now: MonotonicClock.nanoseconds())
        while running.load(ordering: .relaxed) {
            runPeriod(clock: &clock)
        }
    }

    var periodNanoseconds: UInt64 { UInt64(Double(periodFrames) / sampleRate * 1e9) }

    /// One period: read the input, place the MIDI that arrived, render, write. Audio thread.
    func runPeriod(clock: inout PeriodClock) {
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
        let count = collectEvents(arrivedBefore: min(UInt64(clock.boundary), start), periodStart: periodStart)
        engine.render(output: out, input: inputBlock, events: UnsafeBufferPointer(rebasing: events[0..<count]))
        let renderNanoseconds = MonotonicClock.nanoseconds() - start
        stats.record(renderNanoseconds: renderNanoseconds, periodNanoseconds: periodNanoseconds)
        if case .deviceLost = output.write(left: out.left, right: out.right, frames: periodFrames) {
            recoverLostOutput(periodNanoseconds: periodNanoseconds)
        }
    }

    /// Moves the messages that arrived before `now` into the event buffer. A message that
    /// arrived a fraction f of the way through the previous period (`periodStart` to `now`, as
    /// kept by `PeriodClock`) lands at frame f × period.
    private func collectEvents(arrivedBefore now: UInt64, periodStart: UInt64) -> Int {
        var count = 0
        let span = Double(max(now &- periodStart, 1))
        while count < events.count, let next = earliest(before: now) {
            let elapsed = next.arrivalNanoseconds > periodStart ? Double(next.arrivalNanoseconds - periodStart) : 0
            let frame = min(Int(elapsed / span * Double(periodFrames)), periodFrames - 1)
            events[count] = TimedMIDIMessage(frameOffset: frame, message: next.message)
            count += 1
        }
        return count
    }

    /// Pops whichever ring holds the earlier message that arrived before `now` (the two are
    /// merged so frame offsets stay in order).
    private func earliest(before now: UInt64) -> StampedMessage? {
        let liveTime = inbox.ring.peek()?.arrivalNanoseconds ?? .max
        let songTime = inbox.songRing.peek()?.arrivalNanoseconds ?? .max
        guard min(liveTime, songTime) <= now else { return nil }
        return liveTime <= songTime ? inbox.ring.pop() : inbox.songRing.pop()
    }

    /// The device vanished (unplugged, driver gone). Keep rendering at the period's pace into
    /// nowhere so MIDI state stays current (note-offs are not lost), and try to reopen with
    /// back-off (100 ms doubling to 5 s). No deadline is being kept here, so opening a device is fine.
    private func recoverLostOutput(periodNanoseconds: UInt64) {
        stats.deviceLosses.wrappingIncrement(ordering: .relaxed)
        guard let reopenOutput else { return }
        let out = outputBuffer.block(frames: periodFrames)
        var backoff = ReopenBackoff()
        var nextAttempt = MonotonicClock.nanoseconds() + UInt64(backoff.nextDelaySeconds() * 1e9)
        var previousStart = MonotonicClock.nanoseconds()
        while running.load(ordering: .relaxed) {
            let start = MonotonicClock.nanoseconds()
            let count = collectEvents(arrivedBefore: start, periodStart: previousStart)
            engine.render(output: out, events: UnsafeBufferPointer(rebasing: events[0..<count]))
            previousStart = start
            if start >= nextAttempt {
                if let device = reopenOutput() {
                    output = device
                    stats.reopens.wrappingIncrement(ordering: .relaxed)
                    return
                }
                nextAttempt = start + UInt64(backoff.nextDelaySeconds() * 1e9)
            }
            var ts = timespec(tv_sec: Int(periodNanoseconds / 1_000_000_000), tv_nsec: Int(periodNanoseconds % 1_000_000_000))
            nanosleep(&ts, nil)
        }
    }
}

/// Render-time figures the audio thread publishes for the status line and the soak report.
final class LoopStatistics: @unchecked Sendable {
    let periods = ManagedAtomic<Int>(0)
    /// Periods whose render took longer than the period itself.
    let missedDeadlines = ManagedAtomic<Int>(0)
    let lastRenderNanoseconds = ManagedAtomic<UInt64>(0)
    let worstRenderNanoseconds = ManagedAtomic<UInt64>(0)
    let deviceLosses = ManagedAtomic<Int>(0)
    let reopens = ManagedAtomic<Int>(0)

    func record(renderNanoseconds: UInt64, periodNanoseconds: UInt64) {
        periods.wrappingIncrement(ordering: .relaxed)
        lastRenderNanoseconds.store(renderNanoseconds, ordering: .relaxed)
        if renderNanoseconds > worstRenderNanoseconds.load(ordering: .relaxed) {
            worstRenderNanoseconds.store(renderNanoseconds, ordering: .relaxed)
        }
        if renderNanoseconds > periodNanoseconds { missedDeadlines.wrappingIncrement(ordering: .relaxed) }
    }
}
