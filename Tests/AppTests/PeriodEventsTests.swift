import AudioTestSupport
import LiveLoop
import MIDI
import Testing

/// The live loop's per-period MIDI budget: a flood is applied at a bounded rate, never dropped,
/// never reordered, and only values a later one replaces are left out.
@Suite struct PeriodEventsTests {
    /// A live ring, a song ring and the collector, with messages stamped in nanoseconds.
    final class Rig {
        let rings = MIDIRings(liveCapacity: 1 << 18, songCapacity: 64)
        var live: EventRing<StampedMessage> { rings.live }
        var song: EventRing<StampedMessage> { rings.song }
        let events: PeriodEvents
        var period: UInt64 = 0
        static let periodNanoseconds: UInt64 = 1_000_000

        /// Periods of 100 frames; a note-on refills every 50 frames (2 a period).
        init(budget: Int = 8, noteOnBurst: Int = 4) {
            events = PeriodEvents(rings: rings, budget: budget, noteOnBurst: noteOnBurst, noteOnFrames: 50, staleNanoseconds: 3 * Self.periodNanoseconds)
        }

        func send(_ messages: [MIDIMessage], at nanos: UInt64 = 0, song toSong: Bool = false) {
            for m in messages { #expect((toSong ? song : live).push(StampedMessage(message: m, arrivalNanoseconds: nanos))) }
        }

        /// One period of 100 frames spanning [period, period + 1) ms; returns what it applies.
        func collect() -> [TimedMIDIMessage] {
            let start = period * Self.periodNanoseconds
            period += 1
            return Array(events.collect(arrivedBefore: start + Self.periodNanoseconds, periodStart: start, periodFrames: 100))
        }
    }

    static func cc(_ channel: UInt8, _ controller: UInt8, _ value: UInt8) -> MIDIMessage {
        .controlChange(channel: channel, controller: controller, value: value)
    }

    static func on(_ channel: UInt8, _ note: UInt8) -> MIDIMessage { .noteOn(channel: channel, note: note, velocity: 100) }

    /// 100 controllers none of which replaces another: 8 per period, in order, the late ones at
    /// frame 0 of the period they are applied in; every period that left some is counted.
    @Test func theBudgetDefersTheRestInOrderAndDropsNothing() {
        let rig = Rig()
        let sent: [MIDIMessage] = (0..<100).map { (i: Int) in Self.cc(UInt8(i % 16), UInt8(1 + i / 16), UInt8(i)) }
        rig.send(sent, at: 500_000)  // half-way through the first period
        let first = rig.collect()
        #expect(first.count == 8 && first.allSatisfy { $0.frameOffset == 50 })
        var applied = first.map(\.message)
        var periods = 1
        while applied.count < sent.count, periods < 100 {
            let next = rig.collect()
            #expect(next.count <= 8 && next.allSatisfy { $0.frameOffset == 0 })
            applied += next.map(\.message)
            periods += 1
        }
        #expect(applied == sent)
        #expect(periods == 13 && rig.events.deferredPeriods.load(ordering: .relaxed) == 12)
        #expect(rig.events.coalesced.load(ordering: .relaxed) == 0)
    }

    /// Note-ons come from a bucket: a burst as large as it sounds at once, then 2 a period (one per
    /// 50 frames); a note-on that finds it empty waits with everything after it, and is skipped
    /// and counted once it has waited 3 periods.
    @Test func noteOnsDrawOnABucketAndStaleOnesAreSkipped() throws {
        let rig = Rig(budget: 64, noteOnBurst: 4)
        let chord: [MIDIMessage] = [Self.on(0, 60), Self.cc(0, 7, 100), Self.on(0, 61), Self.on(0, 62), Self.on(0, 63),
                                    Self.on(0, 64), Self.cc(0, 10, 3), Self.on(0, 65), Self.on(0, 66)]
        rig.send(chord)
        #expect(rig.collect().map(\.message) == Array(chord[0..<5]), "the burst of 4")
        #expect(rig.collect().map(\.message) == Array(chord[5..<8]), "2 more a period")
        #expect(rig.events.deferredPeriods.load(ordering: .relaxed) == 2)
        #expect(rig.collect().map(\.message) == [Self.on(0, 66)])
        // 20 note-ons a period for 10 periods: 2 a period sound; the rest wait 3 periods, then are skipped.
        var sounded = 0
        for _ in 0..<10 {
            rig.send((0..<20).map { Self.on(1, UInt8($0)) }, at: rig.period * Rig.periodNanoseconds)
            sounded += rig.collect().count
        }
        #expect(sounded == 20 + 1, "2 a period, and one more the bucket had refilled")
        let skipped = rig.events.skippedNoteOns.load(ordering: .relaxed)
        let oldest = try #require(rig.live.peek())
        #expect(skipped > 100 && rig.period * Rig.periodNanoseconds - oldest.arrivalNanoseconds < 3 * Rig.periodNanoseconds,
                "skipped \(skipped); what waits has waited less than 3 periods")
        #expect(sounded + skipped + rig.live.count == 200)
    }

    /// Last value wins among controller, bend and pressure values of one channel with nothing
    /// order-sensitive between them, and it keeps the later value's frame.
    @Test func aReplacedValueIsLeftOut() {
        let rig = Rig(budget: 64)
        rig.send([Self.cc(0, 1, 10)], at: 100_000)
        rig.send([.pitchBend(channel: 0, value: -100), Self.cc(0, 1, 20), .pitchBend(channel: 0, value: 200)], at: 300_000)
        rig.send([Self.on(1, 60), Self.cc(0, 1, 30), .channelPressure(channel: 0, pressure: 5)], at: 700_000)
        let applied = rig.collect()
        #expect(applied == [TimedMIDIMessage(frameOffset: 30, message: .pitchBend(channel: 0, value: 200)),
                            TimedMIDIMessage(frameOffset: 70, message: Self.on(1, 60)),
                            TimedMIDIMessage(frameOffset: 70, message: Self.cc(0, 1, 30)),
                            TimedMIDIMessage(frameOffset: 70, message: .channelPressure(channel: 0, pressure: 5))])
        #expect(rig.events.coalesced.load(ordering: .relaxed) == 3)
    }

    /// Nothing is coalesced across a note, program change or order-sensitive controller of its channel:
    /// a pedal lifted after a note-off, a controller a note was struck with, an RPN's data entry.
    @Test func valuesAroundNotesAndParameterNumbersAreAllKept() {
        let rig = Rig(budget: 64)
        let sent: [MIDIMessage] = [
            Self.cc(0, 64, 127), .noteOff(channel: 0, note: 60, velocity: 0), Self.cc(0, 64, 0),
            Self.cc(1, 74, 10), Self.on(1, 60), Self.cc(1, 74, 20),
            Self.cc(2, 101, 0), Self.cc(2, 100, 0), Self.cc(2, 6, 2), Self.cc(2, 100, 1), Self.cc(2, 6, 5),
            Self.cc(3, 0, 1), Self.cc(3, 0, 2), .programChange(channel: 3, program: 1), Self.cc(3, 123, 0), Self.cc(3, 123, 0),
        ]
        rig.send(sent)
        #expect(rig.collect().map(\.message) == sent)
        #expect(rig.events.coalesced.load(ordering: .relaxed) == 0)
    }

    /// A SysEx acts on every channel: each one is applied, in order, and no controller value on
    /// any channel is coalesced across it (a reset between two CC7 values must not lose the first).
    @Test func nothingIsCoalescedAcrossASysEx() {
        let rig = Rig(budget: 64)
        let sent: [MIDIMessage] = [
            Self.cc(0, 7, 50), Self.cc(5, 10, 0), .system(.reset(.generalMIDI)), Self.cc(0, 7, 60), Self.cc(5, 10, 127),
            .system(.masterVolume(100)), .system(.masterVolume(200)), .system(.rhythmPart(channel: 10, map: 1)), Self.cc(10, 7, 1),
        ]
        rig.send(sent)
        #expect(rig.collect().map(\.message) == sent)
        #expect(rig.events.coalesced.load(ordering: .relaxed) == 0)
        #expect(Coalescing.key(.system(.masterVolume(1))) == nil)
    }

    /// The song ring and the live ring are merged by arrival time.
    @Test func songAndLiveMessagesAreMergedByArrival() {
        let rig = Rig(budget: 64)
        rig.send([Self.on(0, 60)], at: 200_000)
        rig.send([Self.on(9, 36)], at: 100_000, song: true)
        rig.send([Self.on(0, 61)], at: 900_000)
        rig.send([Self.on(9, 38)], at: 400_000, song: true)
        rig.send([Self.on(9, 40)], at: 1_500_000, song: true)  // arrives in the next period
        let first = rig.collect()
        #expect(first.map(\.message) == [Self.on(9, 36), Self.on(0, 60), Self.on(9, 38), Self.on(0, 61)])
        #expect(first.map(\.frameOffset) == [10, 20, 40, 90])
        #expect(rig.collect() == [TimedMIDIMessage(frameOffset: 50, message: Self.on(9, 40))])
    }

    /// 200,000 random messages (every kind, every channel) arriving faster than the budget: what
    /// is applied keeps every note, program change and order-sensitive controller in order, and
    /// leaves every controller, bend and pressure at the last value sent.
    @Test func aFloodKeepsEveryNoteInOrderAndEveryFinalValue() {
        var random = SeededGenerator(seed: 20_261_124)
        let rig = Rig(budget: 32, noteOnBurst: 1_000_000)
        var sent: [MIDIMessage] = []
        var applied: [MIDIMessage] = []
        for period in 0..<20_000 {
            // 10 a period, 60 in every fourth: bursts over the budget.
            let count = period % 4 == 0 ? 60 : 10
            let burst = (0..<count).map { _ in Self.randomMessage(&random) }
            sent += burst
            rig.send(burst, at: UInt64(period) * Rig.periodNanoseconds + 10)
            applied += rig.collect().map(\.message)
        }
        while applied.count < sent.count, rig.live.peek() != nil { applied += rig.collect().map(\.message) }
        let ordered = { (list: [MIDIMessage]) in list.filter { Coalescing.key($0) == nil } }
        #expect(ordered(applied) == ordered(sent))
        #expect(Self.finalValues(applied) == Self.finalValues(sent))
        let coalesced = rig.events.coalesced.load(ordering: .relaxed)
        #expect(applied.count + coalesced == sent.count, "nothing lost: applied \(applied.count), coalesced \(coalesced) of \(sent.count)")
        #expect(coalesced > 0 && rig.events.deferredPeriods.load(ordering: .relaxed) > 0)
    }

    static func randomMessage(_ r: inout SeededGenerator) -> MIDIMessage {
        let channel = UInt8(r.next() % 16), a = UInt8(r.next() % 128), b = UInt8(r.next() % 128)
        switch r.next() % 8 {
        case 0: return .noteOn(channel: channel, note: a, velocity: b | 1)
        case 1: return .noteOff(channel: channel, note: a, velocity: b)
        case 2, 3: return .controlChange(channel: channel, controller: UInt8(r.next() % 8) * 16 + a % 3, value: b)
        case 4: return .pitchBend(channel: channel, value: Int16(r.next() % 16_384) - 8192)
        case 5: return .programChange(channel: channel, program: a)
        case 6: return .channelPressure(channel: channel, pressure: b)
        default: return .polyPressure(channel: channel, note: a % 4, pressure: b)
        }
    }

    /// The last message per channel and coalescing key.
    static func finalValues(_ list: [MIDIMessage]) -> [Int: MIDIMessage] {
        var last: [Int: MIDIMessage] = [:]
        for m in list { if let key = Coalescing.key(m) { last[Int(m.channel) * 1000 + key] = m } }
        return last
    }
}
