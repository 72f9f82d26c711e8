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

    var events: UnsafeBufferPointer<TimedMIDIMessage> { UnsafeBufferPointer(rebasing: storage[0..<count]) }
}
