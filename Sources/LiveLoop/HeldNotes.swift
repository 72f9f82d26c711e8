import MIDI

/// The notes one MIDI input holds and the channels where its sustain pedal is down, kept on the
/// render thread for an input that can vanish mid-chord with no way to send its note-offs (JACK
/// MIDI: the source's port disconnected, the server gone): its releases are then made here.
/// Storage is allocated once at init (16 channels × 128 notes as bits); nothing else allocates.
///
/// `@unchecked Sendable`: used by one thread at a time (JACK's process thread, or the control thread
/// once the client is closed).
public final class HeldNotes: @unchecked Sendable {
    private let notes: UnsafeMutablePointer<UInt64>
    private var sustained: UInt16 = 0

    public init() {
        notes = .allocate(capacity: NoteBits.words)
        notes.initialize(repeating: 0, count: NoteBits.words)
    }

    deinit { notes.deallocate() }

    /// Nothing held, no pedal down.
    public var isEmpty: Bool {
        @_noAllocation get {
            if sustained != 0 { return false }
            for word in 0..<NoteBits.words where notes[word] != 0 { return false }
            return true
        }
    }

    /// Follows one message the input delivered.
    @_noAllocation
    public func observe(_ message: MIDIMessage) {
        switch message.normalized {
        case .noteOn(let channel, let note, _):
            notes[NoteBits.word(channel, note)] |= NoteBits.bit(note)
        case .noteOff(let channel, let note, _):
            notes[NoteBits.word(channel, note)] &= ~NoteBits.bit(note)
        case .controlChange(let channel, MIDIController.sustainPedal, let value):
            let bit = UInt16(1) << UInt16(channel & 0x0F)
            sustained = value >= 64 ? sustained | bit : sustained & ~bit
        default:
            return
        }
    }

    /// Writes what silences the input at `frame` — a note-off for every held note, then a
    /// sustain-off for every channel whose pedal is down — into `buffer`, at most `capacity`
    /// messages, forgetting what it wrote (call again while `isEmpty` is false). Returns the count.
    @_noAllocation
    public func release(into buffer: UnsafeMutablePointer<TimedMIDIMessage>, capacity: Int, frame: Int) -> Int {
        var count = 0
        for word in 0..<NoteBits.words {
            while notes[word] != 0 {
                guard count < capacity else { return count }
                let bits = notes[word]
                let note = UInt8((word & 1) * 64 + bits.trailingZeroBitCount)
                buffer[count] = TimedMIDIMessage(frameOffset: frame, message: .noteOff(channel: UInt8(word >> 1), note: note, velocity: 0))
                notes[word] = bits & (bits - 1)
                count += 1
            }
        }
        for channel in 0..<16 where sustained & (UInt16(1) << UInt16(channel)) != 0 {
            guard count < capacity else { return count }
            buffer[count] = TimedMIDIMessage(
                frameOffset: frame, message: .controlChange(channel: UInt8(channel), controller: MIDIController.sustainPedal, value: 0))
            sustained &= ~(UInt16(1) << UInt16(channel))
            count += 1
        }
        return count
    }
}

/// Where a note's bit is (an enum, not the class's statics: naming a class type on the render path
/// needs its metadata).
private enum NoteBits {
    /// Per channel, 128 notes as two UInt64.
    static let words = 16 * 2

    @_noAllocation @inline(__always)
    static func word(_ channel: UInt8, _ note: UInt8) -> Int { Int(channel & 0x0F) * 2 + Int(note & 0x7F) / 64 }

    @_noAllocation @inline(__always)
    static func bit(_ note: UInt8) -> UInt64 { UInt64(1) << UInt64(note & 63) }
}
