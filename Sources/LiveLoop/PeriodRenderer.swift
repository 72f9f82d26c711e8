import ALSAIO
import DSP
import Engine
import MIDI
import Synchronization

/// The one render path of the live instrument, whatever drives it: per period, place the MIDI
/// that arrived (`PeriodEvents`, on frames timed by `PeriodClock`), render the engine into the
/// buffers given, publish the figures (`LoopStatistics`). The ALSA push loop (`AudioLoop`) calls
/// `render` between its device read and write; a callback driver calls it from the process
/// callback with the buffers it is handed. While a device is gone, the control thread calls
/// `renderWithoutOutput` instead, so MIDI keeps being applied (`OutageRecovery`).
///
/// The engine is handed over (`sending`) at init: from then on only the thread that calls
/// `render` renders; other threads use `controller`.
///
/// `@unchecked Sendable`: the engine, the clock and the scratch block are used by one thread at a
/// time (the driver's render thread, or the control thread while the driver is stopped); the rest
/// is immutable or atomic.
public final class PeriodRenderer: @unchecked Sendable {
    /// What other threads may use while the driver runs.
    public let controller: EngineController
    public let inbox: MIDIInbox
    /// This period's MIDI, bounded.
    public let events: PeriodEvents
    public let stats = LoopStatistics()
    /// Frames per period: the engine's block size, at most `engine.configuration.maxFrames`.
    public let periodFrames: Int
    public let sampleRate: Double
    public let periodNanoseconds: UInt64
    /// The length of the driver's periods now: `periodNanoseconds`, unless a callback driver's
    /// buffer size changed (`restartClock(periodFrames:)`). For the DSP load in `status`. Any thread.
    public let currentPeriodNanoseconds: Atomic<UInt64>

    /// The objects above and the engine as the render path calls them (unretained; this object owns them).
    private let engineOwner: AudioEngine
    private let engine: RenderRef<AudioEngine>
    private let collector: RenderRef<PeriodEvents>
    private let figures: RenderRef<LoopStatistics>
    private var clock: PeriodClock
    private let scratchOwner: StereoBuffer
    private let scratch: StereoBlock

    public init(engine: sending AudioEngine, inbox: MIDIInbox, periodFrames: Int) {
        precondition(periodFrames <= engine.configuration.maxFrames, "period above the engine's maxFrames")
        controller = engine.controller
        sampleRate = engine.configuration.sampleRate
        self.inbox = inbox
        self.periodFrames = periodFrames
        periodNanoseconds = UInt64(Double(periodFrames) / sampleRate * 1e9)
        currentPeriodNanoseconds = Atomic(periodNanoseconds)
        events = PeriodEvents(rings: inbox.rings, periodFrames: periodFrames)
        engineOwner = engine
        self.engine = RenderRef(engine)
        collector = RenderRef(events)
        figures = RenderRef(stats)
        clock = PeriodClock(periodNanoseconds: Double(periodNanoseconds), now: MonotonicClock.nanoseconds())
        scratchOwner = StereoBuffer(capacity: periodFrames)
        scratch = scratchOwner.block(frames: periodFrames)
    }

    /// Render thread, before the first period of a run (a driver thread starting, after an
    /// outage): the period clock starts afresh from now.
    @_noAllocation
    public func restartClock() {
        clock = PeriodClock(periodNanoseconds: clock.periodNanoseconds, now: MonotonicClock.nanoseconds())
    }

    /// Render thread: a callback driver's buffer size changed to `frames` (≤ the engine's
    /// maxFrames): periods are that long from now on, and the clock starts afresh.
    @_noAllocation
    public func restartClock(periodFrames frames: Int) {
        let nanoseconds = Double(frames) / sampleRate * 1e9
        currentPeriodNanoseconds.store(UInt64(nanoseconds), ordering: .relaxed)
        clock = PeriodClock(periodNanoseconds: nanoseconds, now: MonotonicClock.nanoseconds())
    }

    /// One period: the MIDI that arrived since the last one, placed on frames, then the engine's
    /// render into `output` (overwritten; `output.frames` ≤ `periodFrames`) with `input` on the
    /// mic/line bus. Call it as soon as the device has room (or the callback runs): the time of
    /// the call is the period's wake-up. Render thread.
    @_noAllocation
    public func render(output: StereoBlock, input: StereoBlock?) {
        let start = MonotonicClock.nanoseconds()
        let periodStart = UInt64(clock.boundary)
        clock.advance(wokeAt: start)
        // Messages that arrived after the smoothed boundary wait for the next period.
        let arrivedBefore = min(UInt64(clock.boundary), start)
        let frames = output.frames
        let midi = collector { $0.collect(arrivedBefore: arrivedBefore, periodStart: periodStart, periodFrames: frames) }
        engine { $0.render(output: output, input: input, events: midi) }
        let renderNanoseconds = MonotonicClock.nanoseconds() - start
        let period = UInt64(clock.periodNanoseconds)
        figures { $0.record(periodStart: start, renderNanoseconds: renderNanoseconds, periodNanoseconds: period) }
    }

    /// While there is no device (control thread, driver stopped): renders one period into
    /// nowhere, applying the MIDI that arrived between `periodStart` and `now`, so no note-off is lost.
    public func renderWithoutOutput(periodStart: UInt64, now: UInt64) {
        let midi = events.collect(arrivedBefore: now, periodStart: periodStart, periodFrames: periodFrames)
        engineOwner.render(output: scratch, events: midi)
    }

    /// Renders a few silent periods before the driver starts (control thread), so first-touch
    /// page faults and the sampler's program hand-over do not land on the first deadline.
    public func warmUp(periods: Int = 32) {
        for _ in 0..<periods { engineOwner.render(output: scratch) }
    }

    /// Voices sounding in the synth and the sampler. The rendering thread, between periods (or
    /// the control thread while the driver is stopped).
    public var activeVoiceCounts: (synth: Int, sampler: Int) { engineOwner.activeVoiceCounts }
}
