import DSP
import JACKIO

/// The callback driver's real-time side: JACK's process callback hands each cycle here, and it
/// renders straight into JACK's port buffers through the one render path (`PeriodRenderer`).
/// JACK's buffer size may change between cycles (`jack_bufsize`, a PipeWire quantum change): the
/// engine is prepared for `maxFrames` (4096 by default, far above any live buffer), so a new size
/// only restarts the period clock — nothing is allocated; a larger buffer is rendered in pieces.
///
/// `@unchecked Sendable`: `lastFrames` belongs to JACK's process thread (or to nobody while the
/// client is inactive); the rest is immutable.
public final class JACKRenderTarget: @unchecked Sendable {
    public let renderer: PeriodRenderer
    /// The most frames one `render` call gets (the engine's maxFrames).
    public let maxFrames: Int
    private let period: RenderRef<PeriodRenderer>
    private var lastFrames = 0

    public init(renderer: PeriodRenderer, maxFrames: Int) {
        self.renderer = renderer
        self.maxFrames = maxFrames
        period = RenderRef(renderer)
    }

    /// What the JACK client calls each cycle. The target must outlive the client's activation.
    public var jackRenderer: JACKRenderer {
        JACKRenderer(context: Unmanaged.passUnretained(self).toOpaque(), function: jackRenderEntry)
    }

    /// Control thread, client inactive: the next cycle starts the clock afresh (after an outage).
    public func restart() { lastFrames = 0 }

    /// JACK's process thread: one cycle.
    @_noAllocation
    func render(_ cycle: JACKCycle) {
        if cycle.frames != lastFrames {
            lastFrames = cycle.frames
            let frames = min(cycle.frames, maxFrames)
            period { $0.restartClock(periodFrames: frames) }
        }
        var done = 0
        while done < cycle.frames {
            let count = min(cycle.frames - done, maxFrames)
            let output = StereoBlock(left: cycle.outLeft + done, right: cycle.outRight + done, frames: count)
            var input: StereoBlock?
            if let left = cycle.inLeft, let right = cycle.inRight {
                input = StereoBlock(left: left + done, right: right + done, frames: count)
            }
            period { $0.render(output: output, input: input) }
            done += count
        }
    }
}

/// The C entry JACKIO calls with the target and the cycle (`JACKRenderer`): checked here.
@_noAllocation
private func jackRender(_ context: UnsafeMutableRawPointer, _ cycle: UnsafeRawPointer) {
    let target = RenderRef<JACKRenderTarget>(address: context)
    let values = cycle.assumingMemoryBound(to: JACKCycle.self).pointee
    target { $0.render(values) }
}

private let jackRenderEntry: JACKRenderer.Function = { context, cycle in
    guard let context, let cycle else { return }
    jackRender(context, cycle)
}
