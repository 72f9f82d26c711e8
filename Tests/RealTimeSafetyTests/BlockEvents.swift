import MIDI

/// A block's MIDI events in preallocated storage, so building them between renders allocates
/// nothing inside the counted region. Test thread only.
final class BlockEvents {
    private let storage: UnsafeMutableBufferPointer<TimedMIDIMessage>
    private(set) var count = 0

    init(capacity: Int) { storage = .allocate(capacity: capacity) }
    deinit { storage.deallocate() }

    func removeAll() { count = 0 }

    func add(_ frame: Int, _ message: MIDIMessage) {
        storage[count] = TimedMIDIMessage(frameOffset: frame, message: message)
        count += 1
    }

    var buffer: UnsafeBufferPointer<TimedMIDIMessage> { UnsafeBufferPointer(rebasing: storage[0..<count]) }
}
