/// One RIFF chunk of the file: its four-character id, where its header starts and where its body
/// lies (absolute byte offsets into the file). A chunk's body is always inside its parent's: the
/// reader that makes chunks checks every declared size against the bytes its parent holds.
struct RIFFChunk {
    var id: String
    /// Offset of the 8-byte header.
    var headerOffset: Int
    /// The body: `headerOffset + 8 ..< headerOffset + 8 + declared size`.
    var body: Range<Int>
    /// Where the chunk is, for messages: "pdta/pgen".
    var path: String

    /// The declared size of the body in bytes (without the pad byte).
    var size: Int { body.count }
}

/// Reads little-endian numbers, four-character codes and chunk headers from the file's bytes at
/// absolute offsets. Every read is bounds-checked and throws a `FormatIssue` naming the chunk and
/// offset instead of reading past the data.
struct ChunkReader {
    let bytes: UnsafeRawBufferPointer

    /// SoundFont chunk ids, used to tell whether an odd-sized chunk was padded (see `children`).
    static let knownIDs: Set<String> = [
        "RIFF", "LIST", "ifil", "isng", "INAM", "irom", "iver", "ICRD", "IENG", "IPRD", "ICOP", "ICMT", "ISFT", "smpl", "sm24",
        "phdr", "pbag", "pmod", "pgen", "inst", "ibag", "imod", "igen", "shdr",
    ]

    func uint8(_ offset: Int) -> UInt8 { bytes[offset] }
    func uint16(_ offset: Int) -> UInt16 { UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8 }
    func int16(_ offset: Int) -> Int16 { Int16(bitPattern: uint16(offset)) }
    func uint32(_ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    /// Four bytes as text; bytes outside printable ASCII are shown as `?` so a garbage id prints on one line.
    func fourCC(_ offset: Int) -> String {
        String(decoding: (0..<4).map { i -> UInt8 in let b = bytes[offset + i]; return (0x20...0x7E).contains(b) ? b : 0x3F }, as: UTF8.self)
    }

    /// A zero-terminated (or full-length) name field, decoded as Latin-1 so any byte is a character,
    /// with trailing spaces dropped.
    func name(_ offset: Int, length: Int = 20) -> String {
        var scalars = String.UnicodeScalarView()
        for i in 0..<length {
            let byte = bytes[offset + i]
            if byte == 0 { break }
            scalars.append(Unicode.Scalar(byte))
        }
        var text = String(scalars)
        while text.last == " " { text.removeLast() }
        return text
    }

    /// The chunk whose header starts at `offset`, which must lie inside `parent` (a range of the file).
    func chunk(at offset: Int, within parent: Range<Int>, parentPath: String) throws(FormatIssue) -> RIFFChunk {
        guard offset + 8 <= parent.upperBound else {
            throw FormatIssue(
                chunk: parentPath, byteOffset: offset,
                reason: "\(parent.upperBound - offset) stray bytes where a chunk header (8 bytes) should start")
        }
        let id = fourCC(offset)
        let declared = Int(uint32(offset + 4))
        let path = parentPath.isEmpty ? id : parentPath + "/" + id
        guard declared <= parent.upperBound - (offset + 8) else {
            throw FormatIssue(
                chunk: path, byteOffset: offset,
                reason: "declares \(declared) bytes but \(parentPath.isEmpty ? "the file" : parentPath) holds only "
                    + "\(parent.upperBound - offset - 8) after its header (truncated or corrupt)")
        }
        return RIFFChunk(id: id, headerOffset: offset, body: offset + 8..<offset + 8 + declared, path: path)
    }

    /// The chunks inside `body` in order. RIFF pads odd-sized chunks to an even size, but some
    /// writers do not (the smpl chunk of FluidR3Mono_GM.sf3 is odd with the next LIST right after
    /// it): after an odd chunk the pad byte is assumed unless a known id starts right after the
    /// chunk and none one byte later.
    func children(of body: Range<Int>, path: String) throws(FormatIssue) -> [RIFFChunk] {
        var chunks: [RIFFChunk] = []
        var offset = body.lowerBound
        while offset < body.upperBound {
            let chunk = try self.chunk(at: offset, within: body, parentPath: path)
            chunks.append(chunk)
            offset = chunk.body.upperBound
            if chunk.size % 2 == 1 && offset < body.upperBound && !startsUnpadded(at: offset, within: body) { offset += 1 }
        }
        return chunks
    }

    private func startsUnpadded(at offset: Int, within body: Range<Int>) -> Bool {
        guard offset + 4 <= body.upperBound, Self.knownIDs.contains(fourCC(offset)) else { return false }
        return !(offset + 5 <= body.upperBound && Self.knownIDs.contains(fourCC(offset + 1)))
    }
}
