import Glibc

/// libsndfile starts each Ogg stream with a random serial number (seeded from the clock), which
/// every page repeats and its CRC covers: the only bytes in which two renders of the same song
/// differ. `fix` gives every page one fixed serial number and its CRC again, in place.
enum OggSerialNumber {
    static let fixed: UInt32 = 0x4147_0001

    static func fix(descriptor: Int32, path: String) throws(AudioFileError) {
        var offset: off_t = 0
        var page = [UInt8](repeating: 0, count: 27 + 255 + 255 * 255)
        while true {
            let got = read(descriptor, &page, 27, at: offset)
            if got == 0 { return }
            guard got == 27, page[0..<4].elementsEqual("OggS".utf8) else {
                throw AudioFileError(path: path, reason: "the Ogg encoder wrote no page at byte \(offset)")
            }
            let segments = Int(page[26])
            guard read(descriptor, &page[27...], segments, at: offset + 27) == segments else {
                throw AudioFileError(path: path, reason: "Ogg page at byte \(offset) is cut short")
            }
            let length = 27 + segments + page[27..<(27 + segments)].reduce(0) { $0 + Int($1) }
            guard read(descriptor, &page[0...], length, at: offset) == length else {
                throw AudioFileError(path: path, reason: "Ogg page at byte \(offset) is cut short")
            }
            for i in 0..<4 {
                page[14 + i] = UInt8(truncatingIfNeeded: fixed >> (8 * UInt32(i)))
                page[22 + i] = 0
            }
            let crc = checksum(page[0..<length])
            for i in 0..<4 { page[22 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
            let written = page.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, length, offset) }
            guard written == length else {
                throw AudioFileError(path: path, reason: "write failed: \(String(cString: strerror(errno)))")
            }
            offset += off_t(length)
        }
    }

    private static func read(_ descriptor: Int32, _ bytes: inout ArraySlice<UInt8>, _ count: Int, at offset: off_t) -> Int {
        bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, offset) }
    }

    private static func read(_ descriptor: Int32, _ bytes: inout [UInt8], _ count: Int, at offset: off_t) -> Int {
        bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, offset) }
    }

    /// Ogg's CRC-32: polynomial 0x04C11DB7, most significant bit first, no reflection, initial 0.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.reduce(0) { crc, byte in (crc << 8) ^ table[Int((crc >> 24) ^ UInt32(byte))] }
    }

    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index) << 24
        for _ in 0..<8 { value = value & 0x8000_0000 != 0 ? (value << 1) ^ 0x04C1_1DB7 : value << 1 }
        return value
    }
}
