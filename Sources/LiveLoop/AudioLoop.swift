import ALSAIO
import DSP
import Synchronization

/// The ALSA push driver: per period, read the input, render (`PeriodRenderer`: MIDI placed on
/// frames, the engine, the figures), write — the device's blocking write paces the loop. Runs on
/// the render thread; everything it touches was allocated before `run()`, and the compiler checks
/// it (`@_noAllocation`). When the playback device is lost, `run()` returns and the control
/// thread takes over (`beginOutage`/`serviceOutage`): the render thread never opens, closes or
/// waits for a device itself.
///
/// `@unchecked Sendable`: the devices and `xrunsOfEarlierDevices` belong to the thread running the
/// loop, and the control thread changes them only while none does (after `run()` returned, and
/// before a new render thread starts: thread join and start order the accesses); the rest is
/// immutable or atomic.
public final class AudioLoop: @unchecked Sendable {
    public let renderer: PeriodRenderer
    /// Set by the render thread when `run()` returned because the device went away.
    public let outputLost = Atomic<Bool>(false)
    /// Why it went away: the negative errno of the failed transfer (read after `outputLost`).
    public let lostCode = Atomic<Int32>(0)

    /// nil while the device is lost (closed at once, so the kernel can remove the card).
    private var output: PlaybackDevice?
    private var outputRef: PlaybackRef?
    private let input: CaptureSource?
    private let inputRef: CaptureRef?
    private let running = Atomic<Bool>(true)
    /// Underruns counted by devices used before the current one.
    private var xrunsOfEarlierDevices = 0
    /// The renderer and its buffers as the render path reaches them (unretained; owned above).
    private let period: RenderRef<PeriodRenderer>
    private let figures: RenderRef<LoopStatistics>
    private let buffers: (output: StereoBuffer, input: StereoBuffer)
    private let outputBlock: StereoBlock
    private let inputBlock: StereoBlock

    public init(renderer: PeriodRenderer, output: PlaybackDevice, input: CaptureSource?) {
        self.renderer = renderer
        self.output = output
        outputRef = output.renderSide
        self.input = input
        inputRef = input?.renderSide
        period = RenderRef(renderer)
        figures = RenderRef(renderer.stats)
        buffers = (StereoBuffer(capacity: renderer.periodFrames), StereoBuffer(capacity: renderer.periodFrames))
        outputBlock = buffers.output.block(frames: renderer.periodFrames)
        inputBlock = buffers.input.block(frames: renderer.periodFrames)
    }

    /// Any thread: the loop finishes its current period and returns.
    public func stop() { running.store(false, ordering: .relaxed) }

    public var isRunning: Bool { running.load(ordering: .relaxed) }

    /// Render thread. Returns after `stop()`, or when the playback device is lost (`outputLost`).
    @_noAllocation
    public func run() {
        period { $0.restartClock() }
        while running.load(ordering: .relaxed) {
            if !runPeriod() {
                outputLost.store(true, ordering: .releasing)
                return
            }
        }
    }

    /// One period: read the input, render, write. Render thread. Returns false when the playback
    /// device is gone. What a transfer's status means (underrun recovered, device lost) is decided
    /// by the device (`PCMDevice`'s error taxonomy); a lost device ends the run here.
    @_noAllocation
    public func runPeriod() -> Bool {
        guard let output = outputRef else { return false }
        let out = outputBlock
        var inputBlock: StereoBlock?
        if let inputRef {
            let block = self.inputBlock
            _ = inputRef.read(into: block)
            inputBlock = block
        }
        period { $0.render(output: out, input: inputBlock) }
        let status = output.write(out)
        // Published here, not read from `output` by the status thread: the control thread
        // replaces `output` during a device outage.
        let xruns = xrunsOfEarlierDevices + output.xrunCount
        figures { $0.xruns.store(xruns, ordering: .relaxed) }
        if case .deviceLost(let code) = status {
            lostCode.store(code, ordering: .relaxed)
            _ = figures { $0.deviceLosses.wrappingAdd(1, ordering: .relaxed) }
            return false
        }
        return true
    }

    /// Control thread, render thread not running (its `run()` returned with `outputLost`): lets go
    /// of the lost device at once (the kernel cannot finish removing a card while a handle on it
    /// stays open) and starts rendering into nowhere, MIDI still applied.
    public func beginOutage(now: UInt64, backoff: ReopenBackoff = ReopenBackoff()) -> OutageRecovery {
        if let output {
            xrunsOfEarlierDevices += output.xrunCount
            output.close()
        }
        output = nil
        outputRef = nil
        return OutageRecovery(renderer: renderer, now: now, backoff: backoff)
    }

    /// Control thread, during an outage: renders the periods that fell due and, when an attempt
    /// is due, tries `reopen`. True once a device is back and installed: start a render thread.
    public func serviceOutage(_ recovery: inout OutageRecovery, now: UInt64, reopen: () -> PlaybackDevice?) -> Bool {
        guard let device = recovery.service(now: now, reopen: reopen) else { return false }
        output = device
        outputRef = device.renderSide
        outputLost.store(false, ordering: .relaxed)
        renderer.stats.reopens.wrappingAdd(1, ordering: .relaxed)
        return true
    }
}
