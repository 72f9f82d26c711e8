import ALSAIO
import Foundation
import MIDI
import Synchronization
import MemberwiseInit

/// A MIDI message with the CLOCK_MONOTONIC time it arrived.
@PublicInit
public struct StampedMessage: BitwiseCopyable, Sendable {
    public var message: MIDIMessage
    public var arrivalNanoseconds: UInt64

    public static let placeholder = StampedMessage(message: .noteOff(channel: 0, note: 0, velocity: 0), arrivalNanoseconds: 0)
}

/// The render thread's MIDI sources, one ring per producer (each ring has exactly one): the
/// sequencer's reader thread, the song player, and the control front ends (`ControlService`
/// serialises them). `PeriodEvents` merges them in arrival order. Any thread.
public final class MIDIRings: Sendable {
    /// Sequencer thread → render thread.
    public let live: EventRing<StampedMessage>
    /// Song player thread → render thread.
    public let song: EventRing<StampedMessage>
    /// Control front ends (one at a time) → render thread: notes and panic from the control
    /// socket or a panel.
    public let control: EventRing<StampedMessage>

    public init(liveCapacity: Int = 4096, songCapacity: Int = 4096, controlCapacity: Int = 1024) {
        live = EventRing(capacity: liveCapacity, filler: .placeholder)
        song = EventRing(capacity: songCapacity, filler: .placeholder)
        control = EventRing(capacity: controlCapacity, filler: .placeholder)
    }
}

/// Where sequencer input lands (runs on the sequencer thread): channel messages go to the render
/// thread's ring with their arrival stamps; notes are tracked per source so that when a source
/// disappears mid-chord its notes are released and its sustain pedal lifted (no stuck notes).
///
/// `@unchecked Sendable`: `tracker` is used only by `receive`, on the sequencer's one reader
/// thread; everything else is immutable or atomic.
public final class MIDIInbox: @unchecked Sendable {
    public let rings = MIDIRings()
    private var tracker = SourceNoteTracker(maxSources: 64)
    /// Times the kernel discarded the events it held for us (its queue overflowed).
    public let kernelOverruns = Atomic<Int>(0)
    /// Where the inbox and the feeders around it say what happened (the session's log).
    public let log: @Sendable (String) -> Void

    public init(log: @escaping @Sendable (String) -> Void) {
        self.log = log
    }

    /// Sequencer thread.
    public func receive(_ input: SequencerInput) {
        switch input {
        case .message(let message, let source, let nanos):
            tracker.observe(message, from: source)
            rings.live.push(StampedMessage(message: message, arrivalNanoseconds: nanos))
        case .sourceConnected(let source):
            log("MIDI source \(source) connected")
        case .sourceGone(let source):
            release(source, liftingPedal: true)
        case .commandSenderGone(let source):
            release(source, liftingPedal: false)
        case .autoconnect(let decision):
            log("autoconnect: \(decision)")
        case .inputOverrun(let total):
            kernelOverruns.store(total, ordering: .relaxed)
            if total == 1 || total % 100 == 0 {
                log("MIDI input overrun \(total): the kernel's queue for us overflowed and it discarded the events it held "
                    + "(MIDI arrives faster than it is applied; counted in `audiograph status`)")
            }
        }
    }

    /// A source left: its held notes end; its pedal is lifted unless it was a one-shot command.
    private func release(_ source: SequencerAddress, liftingPedal: Bool) {
        let held = tracker.heldNoteCount(for: source)
        let now = MonotonicClock.nanoseconds()
        let deadline = now + 1_000_000_000
        tracker.release(source: source, liftingPedal: liftingPedal) {
            pushWaiting(StampedMessage(message: $0, arrivalNanoseconds: now), until: deadline)
        }
        let what = liftingPedal ? "MIDI source" : "command sender"
        log("\(what) \(source) gone\(held > 0 ? ": released \(held) held note\(held == 1 ? "" : "s")" : "")")
    }

    /// Pushes a release message, waiting for room (until `deadline`, CLOCK_MONOTONIC) rather than
    /// dropping it: a source that vanishes during a flood, with the ring full, would otherwise
    /// leave its notes stuck. The render thread frees room every period; if it has stopped (at
    /// exit), the wait ends at the deadline and the rest are dropped, counted.
    private func pushWaiting(_ message: StampedMessage, until deadline: UInt64) {
        while !rings.live.push(message, retrying: true) {
            guard MonotonicClock.nanoseconds() < deadline else {
                rings.live.push(message)
                return
            }
            usleep(1000)
        }
    }
}
