import MIDI
import Synchronization

/// The MIDI one period applies, taken from the `MIDIRings` and placed on frames. Bounded, so a
/// flood cannot make a period late (each event applied costs a dispatch and a split of the
/// render at its frame; a note-on starts a voice and may steal one, which fades out beside it):
/// - at most `budget` events per period are applied; the rest stay in their ring, in order, for
///   the next period (they land at its first frame), and every period that left some waiting is
///   counted (`deferredPeriods`);
/// - note-ons draw on a bucket that holds `noteOnBurst` and refills one per `noteOnFrames`
///   frames: a chord of any size up to the burst sounds at once, a flood of note-ons is held to
///   the refill rate. A note-on that finds the bucket empty waits (with everything after it)
///   while it is fresh, and is skipped and counted (`skippedNoteOns`) once it has waited
///   `staleNanoseconds`: by then it is too late to be music, and waiting longer would delay every
///   note-off and controller behind it;
/// - a controller, pitch-bend or pressure value that a later one of the same kind on the same
///   channel replaces within the period is not applied (last value wins, counted in `coalesced`),
///   unless a note, a program change or an order-sensitive controller (bank select, RPN/NRPN and
///   data entry, channel mode messages) on that channel lies between them: notes always sound
///   with the controller values they were sent with.
/// `collect`: render thread (or the control thread while there is no device), checked by the compiler.
///
/// `@unchecked Sendable`: the slots, tables and credit are used only by `collect`, on one thread at
/// a time (the render thread, or the control thread while the render thread is stopped); other
/// threads read the atomic counters.
public final class PeriodEvents: @unchecked Sendable {
    /// Events applied per period at most.
    public let budget: Int
    public let noteOnBurst: Int
    public let noteOnFrames: Int
    public let staleNanoseconds: UInt64
    /// Keeps the rings alive for their consumer sides below (what `collect` calls).
    private let rings: MIDIRings
    private let live: RingConsumer<StampedMessage>
    private let song: RingConsumer<StampedMessage>
    private let control: RingConsumer<StampedMessage>
    /// Note-ons the bucket holds now, in frames (`noteOnFrames` per note-on).
    private var noteOnCredit: Int
    private let slots: UnsafeMutableBufferPointer<TimedMIDIMessage>
    /// Per channel × coalescing key: where in `slots` this period's latest such event is, valid
    /// when its stamp is the current period's.
    private let latest: UnsafeMutablePointer<Int32>
    private let latestStamp: UnsafeMutablePointer<UInt32>
    /// Per channel: the slot of this period's last event that nothing may be coalesced across.
    private let barrier: UnsafeMutablePointer<Int32>
    private var stamp: UInt32 = 0
    /// Periods that left events waiting because the budget was spent.
    public let deferredPeriods = Atomic<Int>(0)
    /// Controller, bend and pressure values replaced within their period before being applied.
    public let coalesced = Atomic<Int>(0)
    /// Note-ons skipped because they found the bucket empty after waiting `staleNanoseconds`.
    public let skippedNoteOns = Atomic<Int>(0)

    /// Literals in an enum, not a class's statics (those are lazy globals the render path may not touch).
    private enum Layout {
        /// 128 controllers, pitch bend, channel pressure, then 128 keys' poly pressure.
        static let keysPerChannel = 128 + 2 + 128
        /// Marks a slot whose event was coalesced away.
        static let removed = -1
    }

    /// Which ring an event came from.
    private enum Source { case live, song, control }

    /// Takes events from `rings`. `budget`, `noteOnBurst`, `noteOnFrames` ≥ 1. Up to 4 × `budget`
    /// events are taken from the rings per period, so coalesced values do not eat the budget.
    public init(rings: MIDIRings, budget: Int, noteOnBurst: Int, noteOnFrames: Int, staleNanoseconds: UInt64) {
        self.rings = rings
        live = rings.live.consumer
        song = rings.song.consumer
        control = rings.control.consumer
        self.budget = max(budget, 1)
        self.noteOnBurst = max(noteOnBurst, 1)
        self.noteOnFrames = max(noteOnFrames, 1)
        self.staleNanoseconds = staleNanoseconds
        noteOnCredit = self.noteOnBurst * self.noteOnFrames
        slots = .allocate(capacity: 4 * self.budget)
        slots.initialize(repeating: TimedMIDIMessage(frameOffset: 0, message: .noteOff(channel: 0, note: 0, velocity: 0)))
        let keys = 16 * Layout.keysPerChannel
        latest = .allocate(capacity: keys)
        latest.initialize(repeating: 0, count: keys)
        latestStamp = .allocate(capacity: keys)
        latestStamp.initialize(repeating: 0, count: keys)
        barrier = .allocate(capacity: 16)
        barrier.initialize(repeating: -1, count: 16)
    }

    deinit {
        slots.deallocate()
        latest.deallocate()
        latestStamp.deallocate()
        barrier.deallocate()
    }

    /// The live loop's budgets for a period of `frames` frames (at 48 kHz): one event per 4 frames
    /// (12,000 a second, over ten times what a MIDI cable carries), at least 16; note-ons in
    /// bursts of 32 (a chord with both hands and drums) and 375 a second beyond, a note-on
    /// skipped after waiting 50 ms.
    public convenience init(rings: MIDIRings, periodFrames frames: Int) {
        self.init(rings: rings, budget: max(16, frames / 4), noteOnBurst: 32, noteOnFrames: 128, staleNanoseconds: 50_000_000)
    }

    /// Takes the messages that arrived before `now` from the rings (merged in arrival order),
    /// within the budgets, and places them on frames: a message that arrived a fraction f of the
    /// way from `periodStart` to `now` lands at frame f × `periodFrames` (earlier ones, deferred
    /// from a previous period, at frame 0). The result is valid until the next call.
    @_noAllocation
    public func collect(arrivedBefore now: UInt64, periodStart: UInt64, periodFrames: Int) -> UnsafeBufferPointer<TimedMIDIMessage> {
        stamp &+= 1
        barrier.update(repeating: -1, count: 16)
        let span = Double(max(now &- periodStart, 1))
        noteOnCredit = min(noteOnCredit + periodFrames, noteOnBurst * noteOnFrames)
        var count = 0
        var applied = 0
        while applied < budget, count < slots.count, let (next, source) = earliest(before: now) {
            if case .noteOn(_, _, 1...) = next.message {
                if noteOnCredit < noteOnFrames {
                    guard now &- next.arrivalNanoseconds >= staleNanoseconds else { break }
                    pop(source)
                    skippedNoteOns.wrappingAdd(1, ordering: .relaxed)
                    continue
                }
                noteOnCredit -= noteOnFrames
            }
            pop(source)
            let elapsed = next.arrivalNanoseconds > periodStart ? Double(next.arrivalNanoseconds - periodStart) : 0
            let frame = min(Int(elapsed / span * Double(periodFrames)), periodFrames - 1)
            slots[count] = TimedMIDIMessage(frameOffset: frame, message: next.message)
            if coalesceEarlier(than: next.message, at: count) { applied -= 1 }
            count += 1
            applied += 1
        }
        if earliest(before: now) != nil {
            deferredPeriods.wrappingAdd(1, ordering: .relaxed)
        }
        return UnsafeBufferPointer(rebasing: slots[0..<compact(count)])
    }

    /// Records `message` (about to occupy `slot`) and removes the earlier value it replaces, if
    /// any; returns true when one was removed.
    @_noAllocation
    private func coalesceEarlier(than message: MIDIMessage, at slot: Int) -> Bool {
        if case .system = message {
            // A reset or rhythm-part change acts on every channel: nothing coalesces across it.
            barrier.update(repeating: Int32(slot), count: 16)
            return false
        }
        let channel = Int(message.channel & 15)
        guard let key = Coalescing.key(message) else {
            barrier[channel] = Int32(slot)
            return false
        }
        let index = channel * Layout.keysPerChannel + key
        defer {
            latest[index] = Int32(slot)
            latestStamp[index] = stamp
        }
        guard latestStamp[index] == stamp, latest[index] > barrier[channel] else { return false }
        slots[Int(latest[index])].frameOffset = Layout.removed
        coalesced.wrappingAdd(1, ordering: .relaxed)
        return true
    }

    /// Drops the coalesced slots, keeping order; returns how many remain.
    @_noAllocation
    private func compact(_ count: Int) -> Int {
        var kept = 0
        for i in 0..<count where slots[i].frameOffset != Layout.removed {
            slots[kept] = slots[i]
            kept += 1
        }
        return kept
    }

    /// The oldest message of the three rings if it arrived before `now`, and its ring (merged so
    /// frame offsets stay in order; on a tie the live ring goes first, then the song).
    @_noAllocation
    private func earliest(before now: UInt64) -> (StampedMessage, Source)? {
        var found: (StampedMessage, Source)?
        var limit = now
        if let m = live.peek(), m.arrivalNanoseconds <= limit {
            found = (m, .live)
            limit = m.arrivalNanoseconds
        }
        if let m = song.peek(), m.arrivalNanoseconds <= limit, found == nil || m.arrivalNanoseconds < limit {
            found = (m, .song)
            limit = m.arrivalNanoseconds
        }
        if let m = control.peek(), m.arrivalNanoseconds <= limit, found == nil || m.arrivalNanoseconds < limit {
            found = (m, .control)
        }
        return found
    }

    @_noAllocation
    private func pop(_ source: Source) {
        switch source {
        case .live: _ = live.pop()
        case .song: _ = song.pop()
        case .control: _ = control.pop()
        }
    }
}

/// Which MIDI values replace earlier ones (an enum, not a class's static: naming a class type on the
/// render path needs its metadata).
public enum Coalescing {
    /// Which value a message sets, for messages where only the last value matters; nil for
    /// notes, program changes and controllers whose order or every occurrence matters.
    @_noAllocation
    public static func key(_ message: MIDIMessage) -> Int? {
        switch message {
        case .controlChange(_, let controller, _):
            switch controller {
            case 0, 32,  // bank select: picks what the next program change loads
                6, 38, 96...101,  // data entry, increment/decrement, NRPN/RPN select
                120...127:  // channel mode messages: each is an action
                return nil
            default: return Int(controller & 127)
            }
        case .pitchBend: return 128
        case .channelPressure: return 129
        case .polyPressure(_, let note, _): return 130 + Int(note & 127)
        case .noteOn, .noteOff, .programChange, .system: return nil
        }
    }
}
