/// Base64 decoding for plist `<data>`, which AU writes split over lines and indented with tabs.
/// Foundation-free so the module depends only on libxml2.
enum Base64 {
    /// Decodes standard base64 (RFC 4648 alphabet, `=` padding optional), skipping ASCII
    /// whitespace anywhere. Returns `nil` on any other character or a dangling single symbol.
    static func decode(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count * 3 / 4)
        var accumulator: UInt32 = 0
        var symbolCount = 0
        var paddingSeen = false
        for byte in text.utf8 {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            if byte == UInt8(ascii: "=") {
                paddingSeen = true
                continue
            }
            // Data after padding means two values were glued together: reject it.
            guard !paddingSeen, let sextet = sextetValue(byte) else { return nil }
            accumulator = accumulator << 6 | UInt32(sextet)
            symbolCount += 1
            if symbolCount == 4 {
                output.append(UInt8(truncatingIfNeeded: accumulator >> 16))
                output.append(UInt8(truncatingIfNeeded: accumulator >> 8))
                output.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator = 0
                symbolCount = 0
            }
        }
        switch symbolCount {
        case 0: break
        case 2: output.append(UInt8(truncatingIfNeeded: accumulator >> 4))
        case 3:
            output.append(UInt8(truncatingIfNeeded: accumulator >> 10))
            output.append(UInt8(truncatingIfNeeded: accumulator >> 2))
        default: return nil
        }
        return output
    }

    private static func sextetValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }
}
