/// Reads fixed-size numbers from a byte array in a chosen byte order, failing (nil) instead of
/// reading past the end. Used for the chunk formats libsndfile does not parse for us.
struct ByteCursor {
    let bytes: [UInt8]
    var offset: Int
    let bigEndian: Bool

    init(_ bytes: [UInt8], offset: Int = 0, bigEndian: Bool = true) {
        self.bytes = bytes
        self.offset = offset
        self.bigEndian = bigEndian
    }

    var remaining: Int { bytes.count - offset }

    mutating func uint8() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint32() -> UInt32? {
        guard remaining >= 4 else { return nil }
        var value: UInt32 = 0
        for index in 0..<4 {
            let byte = UInt32(bytes[offset + (bigEndian ? index : 3 - index)])
            value = value << 8 | byte
        }
        offset += 4
        return value
    }

    mutating func uint64() -> UInt64? {
        guard let first = uint32(), let second = uint32() else { return nil }
        return bigEndian ? UInt64(first) << 32 | UInt64(second) : UInt64(second) << 32 | UInt64(first)
    }

    mutating func float32() -> Float? { uint32().map(Float.init(bitPattern:)) }
    mutating func float64() -> Double? { uint64().map(Double.init(bitPattern:)) }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, remaining >= count else { return false }
        offset += count
        return true
    }
}

/// A four-character code as a big-endian UInt32 ("inst" → 0x696E7374).
func fourCC(_ code: StaticString) -> UInt32 {
    var value: UInt32 = 0
    code.withUTF8Buffer { for byte in $0.prefix(4) { value = value << 8 | UInt32(byte) } }
    return value
}
