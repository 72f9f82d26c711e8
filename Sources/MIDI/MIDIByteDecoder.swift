/// Turns a raw MIDI 1.0 byte stream (a serial port, a USB/RTP packet payload) into channel messages.
///
/// Handles running status, ignores real-time bytes (0xF8–0xFF) wherever they appear (even between
/// the data bytes of a message), recognises the SysEx a sound module acts on (`SystemExclusive`:
/// up to `sysexCapacity` bytes are kept in place, a longer SysEx is none of them and is dropped),
/// skips system common messages, and drops data bytes that belong to no message. Render-thread
/// safe: a few bytes of state, no allocation; one decoder per stream.
public struct MIDIByteDecoder: Sendable {
    /// Current channel status for running status, or 0 when data bytes have no owner.
    private var status: UInt8 = 0
    private var firstDataByte: UInt8 = 0
    private var dataBytesSeen = 0
    /// Inside a SysEx: its bytes after `F0`, in place (the longest we recognise is 9).
    private var inSysEx = false
    private var sysex: (UInt64, UInt64) = (0, 0)  // 16 bytes of storage
    private var sysexCount = 0
    /// SysEx bytes kept; a longer one is not a message we act on.
    public static let sysexCapacity = 16

    public init() {}

    /// Feeds one byte; returns a message when this byte completes one. Render-thread safe.
    @_noAllocation
    public mutating func decode(_ byte: UInt8) -> MIDIMessage? {
        if byte >= 0xF8 { return nil }  // real time: no effect on running status or a SysEx
        if inSysEx {
            if byte < 0x80 {
                if sysexCount < Self.sysexCapacity { store(byte) }
                sysexCount += 1
                return nil
            }
            // F7, or any status byte, ends it (an unterminated SysEx is still read); a status byte
            // completes no message itself, so it can start its own after the SysEx is returned.
            inSysEx = false
            let recognised = sysexCount <= Self.sysexCapacity ? recogniseSysEx() : nil
            if byte != 0xF7 { startStatus(byte) }
            guard let recognised else { return nil }
            return .system(recognised)
        }
        if byte >= 0x80 {
            startStatus(byte)
            return nil
        }
        guard status != 0 else { return nil }  // stray data byte
        let needed = Self.dataByteCount(status: status)
        if dataBytesSeen == 0 && needed == 2 {
            firstDataByte = byte
            dataBytesSeen = 1
            return nil
        }
        dataBytesSeen = 0  // message complete; status stays for running status
        return needed == 1
            ? Self.message(status: status, data1: byte, data2: 0)
            : Self.message(status: status, data1: firstDataByte, data2: byte)
    }

    /// A status byte: a channel status (kept for running status), `F0` (a SysEx begins), or a
    /// system common byte (cancels running status; its data bytes are dropped).
    @_noAllocation
    private mutating func startStatus(_ byte: UInt8) {
        dataBytesSeen = 0
        status = byte >= 0xF0 ? 0 : byte
        if byte == 0xF0 {
            inSysEx = true
            sysexCount = 0
        }
    }

    @_noAllocation
    private mutating func store(_ byte: UInt8) {
        let index = sysexCount
        withUnsafeMutableBytes(of: &sysex) { $0[index] = byte }
    }

    @_noAllocation
    private func recogniseSysEx() -> SystemExclusive? {
        var words = sysex
        let count = sysexCount
        return withUnsafeBytes(of: &words) { SystemExclusive.decode(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    /// Forgets any partial message and running status (e.g. after a dropped connection). Render-thread safe.
    public mutating func reset() {
        status = 0
        dataBytesSeen = 0
        inSysEx = false
    }

    /// Data bytes following a channel status byte (0x80–0xEF).
    static func dataByteCount(status: UInt8) -> Int {
        switch status & 0xF0 {
        case 0xC0, 0xD0: 1
        default: 2
        }
    }

    /// Builds the message for a complete channel event. `data1`/`data2` are 7-bit.
    static func message(status: UInt8, data1: UInt8, data2: UInt8) -> MIDIMessage {
        let channel = status & 0x0F
        switch status & 0xF0 {
        case 0x80: return .noteOff(channel: channel, note: data1, velocity: data2)
        case 0x90: return .noteOn(channel: channel, note: data1, velocity: data2)
        case 0xA0: return .polyPressure(channel: channel, note: data1, pressure: data2)
        case 0xB0: return .controlChange(channel: channel, controller: data1, value: data2)
        case 0xC0: return .programChange(channel: channel, program: data1)
        case 0xD0: return .channelPressure(channel: channel, pressure: data1)
        default: return .pitchBend(channel: channel, value: Int16(Int(data2) << 7 | Int(data1)) - 8192)
        }
    }
}

extension MIDIMessage {
    /// The message as MIDI 1.0 bytes (status first, no running status; a SysEx from `F0` to
    /// `F7`). Any thread; allocates.
    public var bytes: [UInt8] {
        if case .system(let sysex) = self { return sysex.bytes }
        let (status, data1, data2) = statusAndData
        return MIDIByteDecoder.dataByteCount(status: status) == 1 ? [status, data1] : [status, data1, data2]
    }

    /// Status byte and two data bytes of a channel message (the second 0 for messages with one);
    /// `.system` is no channel message and gives `(0xF0, 0, 0)` (see `bytes`). No allocation.
    public var statusAndData: (UInt8, UInt8, UInt8) {
        switch self {
        case .system: (0xF0, 0, 0)
        case .noteOff(let c, let n, let v): (0x80 | c & 0x0F, n & 0x7F, v & 0x7F)
        case .noteOn(let c, let n, let v): (0x90 | c & 0x0F, n & 0x7F, v & 0x7F)
        case .polyPressure(let c, let n, let p): (0xA0 | c & 0x0F, n & 0x7F, p & 0x7F)
        case .controlChange(let c, let n, let v): (0xB0 | c & 0x0F, n & 0x7F, v & 0x7F)
        case .programChange(let c, let p): (0xC0 | c & 0x0F, p & 0x7F, 0)
        case .channelPressure(let c, let p): (0xD0 | c & 0x0F, p & 0x7F, 0)
        case .pitchBend(let c, let value):
            {
                let raw = UInt16(clamping: max(0, min(16383, Int(value) + 8192)))
                return (0xE0 | c & 0x0F, UInt8(raw & 0x7F), UInt8(raw >> 7))
            }()
        }
    }
}
