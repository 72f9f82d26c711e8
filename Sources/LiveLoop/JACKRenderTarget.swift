import DSP
import JACKIO
import MIDI

/// The callback driver's real-time side: JACK's process callback hands each cycle here, and it
/// renders straight into JACK's port buffers through the one render path (`PeriodRenderer`).
/// JACK's buffer size may change between cycles (`jack_bufsize`, a PipeWire quantum change): the
/// engine is prepared for `maxFrames` (4096 by default, far above any live buffer), so a new size
/// only restarts the period clock — nothing is allocated; a larger buffer is rendered in pieces.
/// The cycle's JACK MIDI (the optional `midi_in` port) is applied at the frames it arrived on
/// (`PeriodRenderer.render`'s `placed`), and its held notes are followed (`HeldNotes`): released
/// when the port's last source disconnects, or by `releaseHeldNotes` when the server went away.
///
/// `@unchecked Sendable`: `lastFrames`, the decoded events and the held notes belong to JACK's
/// process thread (or to the control thread while the client is closed or inactive); the rest is
/// immutable.
public final class JACKRenderTarget: @unchecked Sendable {
    public let renderer: PeriodRenderer
    /// The most frames one `render` call gets (the engine's maxFrames).
    public let maxFrames: Int
    private let period: RenderRef<PeriodRenderer>
    private var lastFrames = 0
    /// The MIDI in port's sources as of the last cycle: notes are released on a change to none (the
    /// count follows connections a little late, so "none" before the first is no departure).
    private var lastMIDISources = 0
    /// The cycle's MIDI as messages on frames (at most `eventCapacity`), and what they hold.
    private let events: UnsafeMutablePointer<TimedMIDIMessage>
    private let eventCapacity: Int
    private let heldOwner = HeldNotes()
    private let held: RenderRef<HeldNotes>

    public init(renderer: PeriodRenderer, maxFrames: Int) {
        self.renderer = renderer
        self.maxFrames = maxFrames
        period = RenderRef(renderer)
        eventCapacity = renderer.events.placedCapacity
        events = .allocate(capacity: max(eventCapacity, 1))
        events.initialize(repeating: TimedMIDIMessage(frameOffset: 0, message: .noteOff(channel: 0, note: 0, velocity: 0)), count: max(eventCapacity, 1))
        held = RenderRef(heldOwner)
    }

    deinit { events.deallocate() }

    /// What the JACK client calls each cycle. The target must outlive the client's activation.
    public var jackRenderer: JACKRenderer {
        JACKRenderer(context: Unmanaged.passUnretained(self).toOpaque(), function: jackRenderEntry)
    }

    /// Control thread, client inactive: the next cycle starts the clock afresh (after an outage).
    public func restart() {
        lastFrames = 0
        lastMIDISources = 0
    }

    /// Control thread, client closed (the server went away): the notes JACK MIDI left held are
    /// released now, rendered into nowhere at `now` (with whatever MIDI the rings hold), so they
    /// end on time whether or not the server comes back.
    public func releaseHeldNotes(now: UInt64) {
        while eventCapacity > 0, !heldOwner.isEmpty {
            let count = heldOwner.release(into: events, capacity: eventCapacity, frame: 0)
            renderer.renderWithoutOutput(periodStart: now, now: now, placed: UnsafeBufferPointer(start: events, count: count))
        }
    }

    /// JACK's process thread: one cycle.
    @_noAllocation
    func render(_ cycle: JACKCycle) {
        if cycle.frames != lastFrames {
            lastFrames = cycle.frames
            let frames = min(cycle.frames, maxFrames)
            period { $0.restartClock(periodFrames: frames) }
        }
        let count = decodeMIDI(cycle)
        var done = 0
        var next = 0
        while done < cycle.frames {
            let frames = min(cycle.frames - done, maxFrames)
            let output = StereoBlock(left: cycle.outLeft + done, right: cycle.outRight + done, frames: frames)
            var input: StereoBlock?
            if let left = cycle.inLeft, let right = cycle.inRight {
                input = StereoBlock(left: left + done, right: right + done, frames: frames)
            }
            let first = next
            while next < count, events[next].frameOffset < done + frames {
                events[next].frameOffset -= done
                next += 1
            }
            let placed = UnsafeBufferPointer(start: events + first, count: next - first)
            period { $0.render(output: output, input: input, placed: placed) }
            done += frames
        }
    }

    /// The cycle's MIDI as messages on its frames, after the releases of what the MIDI in port's
    /// sources held if the last of them has just disconnected. Returns the count.
    @_noAllocation
    private func decodeMIDI(_ cycle: JACKCycle) -> Int {
        var count = 0
        let (events, capacity) = (self.events, eventCapacity)  // locals: a closure reading fields would capture self
        let departed = lastMIDISources > 0 && cycle.midiSources == 0
        lastMIDISources = cycle.midiSources
        if departed {
            count = held { $0.release(into: events, capacity: capacity, frame: 0) }
        }
        for index in 0..<cycle.midiCount where count < capacity {
            let event = cycle.midi[index]
            var decoder = MIDIByteDecoder()
            var message = decoder.decode(event.status)
            if event.length > 1 { message = decoder.decode(event.data1) }
            if event.length > 2 { message = decoder.decode(event.data2) }
            guard let message else { continue }
            held { $0.observe(message) }
            events[count] = TimedMIDIMessage(frameOffset: min(Int(event.frame), cycle.frames - 1), message: message)
            count += 1
        }
        return count
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
