import AudioFiles
import AudioTestSupport
import Foundation

/// Big-endian / little-endian byte building for hand-made test files.
struct ByteBuilder {
    var bytes: [UInt8] = []
    var bigEndian = true

    mutating func ascii(_ text: String) { bytes += Array(text.utf8) }
    mutating func uint8(_ value: UInt8) { bytes.append(value) }
    mutating func uint16(_ value: UInt16) { append(UInt64(value), count: 2) }
    mutating func uint32(_ value: UInt32) { append(UInt64(value), count: 4) }
    mutating func uint64(_ value: UInt64) { append(value, count: 8) }
    mutating func int16(_ value: Int16) { uint16(UInt16(bitPattern: value)) }
    mutating func float32(_ value: Float) { uint32(value.bitPattern) }
    mutating func float64(_ value: Double) { uint64(value.bitPattern) }

    private mutating func append(_ value: UInt64, count: Int) {
        let order = bigEndian ? Array((0..<count).reversed()) : Array(0..<count)
        for index in order { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }
}

func writeBytes(_ bytes: [UInt8], to path: String) {
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
}

func readBytes(_ path: String) -> [UInt8] {
    (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? []
}

/// Hand-made file bytes as the reader decodes them: written as `name` in a temporary directory
/// (removed after), then read with `AudioFileReader`.
func readBack(_ bytes: [UInt8], as name: String) throws(AudioFileError) -> DecodedAudio {
    let dir = TemporaryDirectory()
    defer { dir.remove() }
    let path = dir.file(name)
    writeBytes(bytes, to: path)
    return try AudioFileReader.read(path: path)
}
