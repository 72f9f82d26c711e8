/// The system-exclusive messages a General MIDI sound module acts on, recognised where they are
/// read (SMF reader, byte decoder, sequencer translator) and carried from there as a fixed-size
/// value: a SysEx reaches the render thread as a plain `MIDIMessage.system`, never as bytes.
/// Every other SysEx (tuning dumps, GS/XG parameters we do not model, a bad checksum) is
/// dropped where it is read. What each one does is in docs/GENERAL-MIDI.md.
public enum SystemExclusive: Sendable, Equatable, Hashable, BitwiseCopyable {
    /// Back to the power-on state: every part's program, controllers and drum assignment.
    case reset(Reset)
    /// GM System Off (`7E id 09 02`): we have no other mode to go to, so it changes nothing.
    case generalMIDIOff
    /// GS "use for rhythm part" (`41 id 42 12 40 1x 15 mm`): `map` 0 makes the part melodic,
    /// 1 or 2 a drum part (bank 128). `channel` is 0-based, already mapped from GS's block order.
    case rhythmPart(channel: UInt8, map: UInt8)
    /// Universal master volume (`7F id 04 01 ll mm`), 14 bits, 16383 = full.
    case masterVolume(UInt16)

    /// The messages that reset the whole module.
    public enum Reset: UInt8, Sendable, Equatable, Hashable, BitwiseCopyable {
        /// `7E id 09 01`
        case generalMIDI = 1
        /// `7E id 09 03`
        case generalMIDI2 = 3
        /// `41 id 42 12 40 00 7F 00 cs` (GS reset, "mode set")
        case gs = 4
        /// `43 1n 4C 00 00 7E 00` (XG System On), also `… 7F 00` (XG all parameter reset)
        case xg = 5
    }

    /// Full master volume (the value after a reset).
    public static let fullMasterVolume: UInt16 = 16383

    /// Recognises the SysEx whose bytes follow the `F0` (`body`, with or without the closing
    /// `F7`); nil for anything else. Any thread; no allocation.
    @_noAllocation
    public static func decode(_ body: UnsafeRawBufferPointer) -> SystemExclusive? {
        var count = body.count
        if count > 0 && body[count - 1] == 0xF7 { count -= 1 }
        guard count >= 4 else { return nil }
        for i in 0..<count where body[i] >= 0x80 { return nil }  // a status byte inside: not one message
        switch body[0] {
        case 0x7E where body[2] == 0x09 && count == 4:  // universal non-real-time, General MIDI
            switch body[3] {
            case 0x01: return .reset(.generalMIDI)
            case 0x02: return .generalMIDIOff
            case 0x03: return .reset(.generalMIDI2)
            default: return nil
            }
        case 0x7F where body[2] == 0x04 && body[3] == 0x01 && count == 6:  // universal real-time, device control
            return .masterVolume(UInt16(body[5]) << 7 | UInt16(body[4]))
        case 0x41 where body[2] == 0x42 && body[3] == 0x12 && count == 9:  // Roland GS, data set 1, one byte
            return roland(body)
        case 0x43 where body[1] & 0xF0 == 0x10 && body[2] == 0x4C && count == 7:  // Yamaha XG parameter change
            let isReset = body[3] == 0 && body[4] == 0 && (body[5] == 0x7E || body[5] == 0x7F) && body[6] == 0
            return isReset ? .reset(.xg) : nil
        default:
            return nil
        }
    }

    /// Any thread (allocates). Recognises the SysEx in `bytes` (what follows the `F0`).
    public static func decode(_ bytes: [UInt8]) -> SystemExclusive? {
        bytes.withUnsafeBytes { decode($0) }
    }

    /// A GS DT1 with one data byte: address `body[4…6]`, data `body[7]`, checksum `body[8]`
    /// (the address and data plus it are 0 modulo 128; a wrong one is a corrupt message).
    @_noAllocation
    private static func roland(_ body: UnsafeRawBufferPointer) -> SystemExclusive? {
        var sum = 0
        for i in 4...8 { sum += Int(body[i]) }
        guard sum & 0x7F == 0 else { return nil }
        let (high, middle, low, data) = (body[4], body[5], body[6], body[7])
        if high == 0x40 && middle == 0x00 && low == 0x7F && data == 0x00 { return .reset(.gs) }
        if high == 0x40 && middle & 0xF0 == 0x10 && low == 0x15 && data <= 2 {
            // Blocks run 0 = channel 10, 1–9 = channels 1–9, A–F = channels 11–16.
            let block = middle & 0x0F
            let channel: UInt8 = block == 0 ? 9 : block <= 9 ? block - 1 : block
            return .rhythmPart(channel: channel, map: data)
        }
        return nil
    }

    /// The message as a complete SysEx, `F0` … `F7` (device id 0x7F, GS device 0x10). Allocates.
    public var bytes: [UInt8] {
        switch self {
        case .reset(.generalMIDI): [0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7]
        case .reset(.generalMIDI2): [0xF0, 0x7E, 0x7F, 0x09, 0x03, 0xF7]
        case .generalMIDIOff: [0xF0, 0x7E, 0x7F, 0x09, 0x02, 0xF7]
        case .reset(.gs): Self.roland(address: (0x40, 0x00, 0x7F), data: 0x00)
        case .reset(.xg): [0xF0, 0x43, 0x10, 0x4C, 0x00, 0x00, 0x7E, 0x00, 0xF7]
        case .masterVolume(let value): [0xF0, 0x7F, 0x7F, 0x04, 0x01, UInt8(value & 0x7F), UInt8(value >> 7 & 0x7F), 0xF7]
        case .rhythmPart(let channel, let map):
            {
                let c = channel & 15
                let block: UInt8 = c == 9 ? 0 : c < 9 ? c + 1 : c
                return Self.roland(address: (0x40, 0x10 | block, 0x15), data: map & 0x7F)
            }()
        }
    }

    private static func roland(address: (UInt8, UInt8, UInt8), data: UInt8) -> [UInt8] {
        let sum = Int(address.0) + Int(address.1) + Int(address.2) + Int(data)
        return [0xF0, 0x41, 0x10, 0x42, 0x12, address.0, address.1, address.2, data, UInt8((128 - sum & 0x7F) & 0x7F), 0xF7]
    }

    /// Three bytes that hold the message (for compact storage: `MIDIEventList`), and back.
    var packed: (UInt8, UInt8, UInt8) {
        switch self {
        case .reset(let kind): (kind.rawValue, 0, 0)
        case .generalMIDIOff: (2, 0, 0)
        case .rhythmPart(let channel, let map): (6, channel, map)
        case .masterVolume(let value): (7, UInt8(value & 0x7F), UInt8(value >> 7 & 0x7F))
        }
    }

    init?(packed kind: UInt8, _ a: UInt8, _ b: UInt8) {
        switch kind {
        case 2: self = .generalMIDIOff
        case 6: self = .rhythmPart(channel: a & 15, map: b)
        case 7: self = .masterVolume(UInt16(b) << 7 | UInt16(a))
        default:
            guard let reset = Reset(rawValue: kind) else { return nil }
            self = .reset(reset)
        }
    }
}
