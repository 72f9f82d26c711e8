/// Builds Standard MIDI File bytes by hand, so reader tests control every byte (running status,
/// corruptions) independently of `MIDIFileWriter`.
enum SMFBuilder {
    static func file(format: UInt16 = 1, division: UInt16 = 480, tracks: [[UInt8]], declaredTracks: Int? = nil) -> [UInt8] {
        var out: [UInt8] = Array("MThd".utf8) + be32(6) + be16(format) + be16(UInt16(declaredTracks ?? tracks.count))
        out += be16(division)
        for track in tracks { out += Array("MTrk".utf8) + be32(UInt32(track.count)) + track }
        return out
    }

    static func tempo(microseconds: Int) -> [UInt8] {
        [0xFF, 0x51, 0x03, UInt8(microseconds >> 16), UInt8((microseconds >> 8) & 0xFF), UInt8(microseconds & 0xFF)]
    }

    static let endOfTrack: [UInt8] = [0x00, 0xFF, 0x2F, 0x00]

    /// A delta time as a variable-length quantity.
    static func delta(_ ticks: Int) -> [UInt8] {
        var bytes = [UInt8(ticks & 0x7F)]
        var rest = ticks >> 7
        while rest > 0 {
            bytes.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
            rest >>= 7
        }
        return bytes
    }

    static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    static func be32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)] }
}
