import MIDI

/// One block's timed MIDI events, refilled block after block in storage allocated once, so the
/// counted render loop allocates nothing to hand them over.
final class EventBlock {
    private let storage: UnsafeMutableBufferPointer<TimedMIDIMessage>
    private var count = 0

    init(capacity: Int) { storage = .allocate(capacity: capacity) }
    deinit { storage.deallocate() }

    func clear() { count = 0 }

    func add(_ frame: Int, _ message: MIDIMessage) {
        storage[count] = TimedMIDIMessage(frameOffset: frame, message: message)
        count += 1
    }

    /// Starts block `n` of a rotation over `parts` channels in which each part keeps 8 notes:
    /// clears the block, releases the note this part started 8 rounds ago and starts it again.
    /// Returns the part's channel and note for the block's other events.
    func startRotation(_ n: Int, parts: Int, velocity: UInt8) -> (channel: UInt8, note: UInt8) {
        clear()
        let channel = UInt8(n % parts), note = UInt8(40 + (n / parts) % 8 * 5)
        add(0, .noteOff(channel: channel, note: note, velocity: 0))
        add(1, .noteOn(channel: channel, note: note, velocity: velocity))
        return (channel, note)
    }

    var events: UnsafeBufferPointer<TimedMIDIMessage> { UnsafeBufferPointer(rebasing: storage[0..<count]) }
}
