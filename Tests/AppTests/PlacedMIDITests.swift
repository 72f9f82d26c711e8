import LiveLoop
import MIDI
import Testing

/// MIDI a callback driver hands over already on frames (JACK MIDI): merged by frame with the
/// rings' events, applied in full, coalesced with them; and the notes such an input holds,
/// released when it vanishes.
@Suite struct PlacedMIDITests {
    static func on(_ note: UInt8, channel: UInt8 = 0) -> MIDIMessage { .noteOn(channel: channel, note: note, velocity: 100) }
    static func off(_ note: UInt8, channel: UInt8 = 0) -> MIDIMessage { .noteOff(channel: channel, note: note, velocity: 0) }

    func collect(_ events: PeriodEvents, placed: [TimedMIDIMessage], frames: Int = 100) -> [TimedMIDIMessage] {
        placed.withUnsafeBufferPointer { Array(events.collect(arrivedBefore: 1_000_000, periodStart: 0, periodFrames: frames, placed: $0)) }
    }

    @Test func placedEventsKeepTheirFramesAndMergeWithTheRingsInFrameOrder() {
        let rings = MIDIRings()
        let events = PeriodEvents(rings: rings, budget: 16, noteOnBurst: 32, noteOnFrames: 1, staleNanoseconds: 1_000_000_000)
        rings.control.push(StampedMessage(message: Self.on(60), arrivalNanoseconds: 500_000))  // half-way: frame 50
        let placed = [TimedMIDIMessage(frameOffset: 7, message: Self.on(64)), TimedMIDIMessage(frameOffset: 50, message: Self.on(67)),
                      TimedMIDIMessage(frameOffset: 99, message: Self.off(64)), TimedMIDIMessage(frameOffset: 250, message: Self.off(67))]
        let applied = collect(events, placed: placed)
        #expect(applied.map(\.frameOffset) == [7, 50, 50, 99, 99])  // a frame past the period is kept inside it
        #expect(applied.map(\.message) == [Self.on(64), Self.on(67), Self.on(60), Self.off(64), Self.off(67)])
    }

    @Test func placedEventsAreAppliedInFullAndTheRingsWaitForTheBudgetLeft() {
        let rings = MIDIRings()
        let events = PeriodEvents(rings: rings, budget: 4, noteOnBurst: 32, noteOnFrames: 1, staleNanoseconds: 1_000_000_000, placedCapacity: 6)
        for note in 0..<UInt8(3) { rings.live.push(StampedMessage(message: Self.on(40 + note), arrivalNanoseconds: 0)) }
        let placed = (0..<8).map { TimedMIDIMessage(frameOffset: $0, message: Self.on(UInt8(60 + $0))) }
        let first = collect(events, placed: placed)
        // Six placed (the capacity; two dropped and counted), none of the rings' (the budget is spent).
        #expect(first.map(\.message) == (0..<6).map { Self.on(UInt8(60 + $0)) })
        #expect(events.droppedPlaced.load(ordering: .relaxed) == 2 && events.deferredPeriods.load(ordering: .relaxed) == 1)
        #expect(collect(events, placed: []).map(\.message) == [Self.on(40), Self.on(41), Self.on(42)])
    }

    @Test func aPlacedControllerReplacesAnEarlierOneOfTheRings() {
        let rings = MIDIRings()
        let events = PeriodEvents(rings: rings, budget: 16, noteOnBurst: 32, noteOnFrames: 1, staleNanoseconds: 1_000_000_000)
        rings.live.push(StampedMessage(message: .controlChange(channel: 0, controller: 7, value: 10), arrivalNanoseconds: 0))
        let applied = collect(events, placed: [TimedMIDIMessage(frameOffset: 20, message: .controlChange(channel: 0, controller: 7, value: 90))])
        #expect(applied == [TimedMIDIMessage(frameOffset: 20, message: .controlChange(channel: 0, controller: 7, value: 90))])
    }

    @Test func heldNotesReleaseWhatIsStillDownAndLiftThePedal() {
        let held = HeldNotes()
        for message in [Self.on(60), Self.on(64), Self.off(60), Self.on(127, channel: 15), .noteOn(channel: 3, note: 5, velocity: 0),
                        .controlChange(channel: 2, controller: 64, value: 127), .controlChange(channel: 9, controller: 64, value: 100),
                        .controlChange(channel: 9, controller: 64, value: 0)] {
            held.observe(message)
        }
        #expect(!held.isEmpty)
        let buffer = UnsafeMutablePointer<TimedMIDIMessage>.allocate(capacity: 8)
        defer { buffer.deallocate() }
        // Two at a time: what was written is forgotten, the rest comes on the next call.
        var released: [TimedMIDIMessage] = []
        while !held.isEmpty {
            let count = held.release(into: buffer, capacity: 2, frame: 3)
            released += UnsafeBufferPointer(start: buffer, count: count)
        }
        #expect(released.map(\.message) == [Self.off(64), Self.off(127, channel: 15), .controlChange(channel: 2, controller: 64, value: 0)])
        #expect(released.allSatisfy { $0.frameOffset == 3 })
    }
}
