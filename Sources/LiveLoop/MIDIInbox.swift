import ALSAIO
import Synchronization
import Foundation
import MIDI

/// A MIDI message with the CLOCK_MONOTONIC time it arrived.
package struct StampedMessage {
    package var message: MIDIMessage
    package var arrivalNanoseconds: UInt64

    package init(message: MIDIMessage, arrivalNanoseconds: UInt64) {
        self.message = message
        self.arrivalNanoseconds = arrivalNanoseconds
    }

    package static let placeholder = StampedMessage(message: .noteOff(channel: 0, note: 0, velocity: 0), arrivalNanoseconds: 0)
}

/// Where sequencer input lands (runs on the sequencer thread): channel messages go to the audio
/// thread's ring with their arrival stamps; notes are tracked per source so that when a source
/// disappears mid-chord its notes are released and its sustain pedal lifted (no stuck notes).
final class MIDIInbox: @unchecked Sendable {
    /// Sequencer thread → render thread.
    let ring = EventRing<StampedMessage>(capacity: 4096, filler: .placeholder)
    /// Song player thread → render thread (a second ring: each ring has one producer).
    let songRing = EventRing<StampedMessage>(capacity: 4096, filler: .placeholder)
    private var tracker = SourceNoteTracker(maxSources: 64)
    /// Times the kernel discarded the events it held for us (its queue overflowed).
    let kernelOverruns = Atomic<Int>(0)
    let log: @Sendable (String) -> Void

    init(log: @escaping @Sendable (String) -> Void) {
        self.log = log
    }

    /// Sequencer thread.
    func receive(_ input: SequencerInput) {
        switch input {
        case .message(let message, let source, let nanos):
            tracker.observe(message, from: source)
            ring.push(StampedMessage(message: message, arrivalNanoseconds: nanos))
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
        while !ring.push(message, retrying: true) {
            guard MonotonicClock.nanoseconds() < deadline else {
                ring.push(message)
                return
            }
            usleep(1000)
        }
    }
}
