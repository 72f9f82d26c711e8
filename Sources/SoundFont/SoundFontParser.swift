/// Reads the RIFF structure of a SoundFont (spec §3–6): the `sfbk` form, its INFO, sdta and pdta
/// lists, and the INFO strings; the pdta tables go to `HydraReader`. Every size is checked against
/// its parent before anything inside is read.
struct SoundFontParser {
    let reader: ChunkReader
    var warnings: [String] = []

    init(bytes: UnsafeRawBufferPointer) { reader = ChunkReader(bytes: bytes) }

    /// INFO strings longer than this are cut (spec §5: 256 bytes, ICMT 65,536).
    static let maxInfoStringBytes = 256
    static let maxCommentBytes = 65_536

    mutating func parse(storage: FontStorage, path: String) throws(FormatIssue) -> SoundFontFile {
        let fileSize = reader.bytes.count
        guard fileSize >= 12, reader.fourCC(0) == "RIFF", reader.fourCC(8) == "sfbk" else {
            throw FormatIssue(chunk: nil, byteOffset: 0, reason: "not a SoundFont (no RIFF 'sfbk' header)")
        }
        let declared = Int(reader.uint32(4))
        guard declared >= 4 else { throw FormatIssue(chunk: "RIFF", byteOffset: 0, reason: "a RIFF size of \(declared) bytes cannot hold its form type") }
        if declared != fileSize - 8 {
            warnings.append(
                declared > fileSize - 8
                    ? "RIFF at byte 0: the header says \(declared + 8) bytes, the file has \(fileSize) (truncated?); reading what is there"
                    : "RIFF at byte 0: \(fileSize - 8 - declared) bytes after the RIFF chunk ignored")
        }
        let body = 12..<min(8 + declared, fileSize)
        let lists = try topLevelLists(body)
        guard let info = lists["INFO"] else { throw FormatIssue(chunk: "RIFF", byteOffset: 0, reason: "no INFO list") }
        guard let sdta = lists["sdta"] else { throw FormatIssue(chunk: "RIFF", byteOffset: 0, reason: "no sdta list (sample data)") }
        guard let pdta = lists["pdta"] else { throw FormatIssue(chunk: "RIFF", byteOffset: 0, reason: "no pdta list (presets)") }

        let fontInfo = try readInfo(info)
        let (smpl, sm24) = try readSampleData(sdta, info: fontInfo)
        var hydra = HydraReader(reader: reader, isSF3: fontInfo.isSF3, samplePool: smpl)
        let tables = try hydra.read(try chunksByID(pdta, required: HydraReader.chunkIDs))
        return SoundFontFile(
            path: path, info: fontInfo, presets: tables.presets, instruments: tables.instruments, samples: tables.samples,
            warnings: warnings + hydra.warnings, unsupported: hydra.unsupported.lines, storage: storage, sampleBytes: smpl,
            sample24Bytes: sm24)
    }

    /// The LIST chunks directly inside the RIFF form, by list type. Order is not enforced (the spec
    /// fixes it, but reading them in any order is harmless); a repeated list is ignored with a warning.
    private mutating func topLevelLists(_ body: Range<Int>) throws(FormatIssue) -> [String: RIFFChunk] {
        var lists: [String: RIFFChunk] = [:]
        for chunk in try reader.children(of: body, path: "") where chunk.id == "LIST" {
            guard chunk.size >= 4 else {
                throw FormatIssue(chunk: "LIST", byteOffset: chunk.headerOffset, reason: "a LIST of \(chunk.size) bytes has no list type")
            }
            let type = reader.fourCC(chunk.body.lowerBound)
            let inner = RIFFChunk(id: type, headerOffset: chunk.headerOffset, body: chunk.body.lowerBound + 4..<chunk.body.upperBound, path: type)
            if lists[type] != nil {
                warnings.append("LIST '\(type)' at byte \(chunk.headerOffset): a second \(type) list, ignored")
            } else {
                lists[type] = inner
            }
        }
        return lists
    }

    /// The sub-chunks of a list by id; a repeated id is ignored with a warning, a missing required one is an error.
    mutating func chunksByID(_ list: RIFFChunk, required: [String]) throws(FormatIssue) -> [String: RIFFChunk] {
        var chunks: [String: RIFFChunk] = [:]
        for chunk in try reader.children(of: list.body, path: list.path) {
            if chunks[chunk.id] != nil {
                warnings.append("\(chunk.path) at byte \(chunk.headerOffset): a second '\(chunk.id)' chunk, ignored")
            } else {
                chunks[chunk.id] = chunk
            }
        }
        for id in required where chunks[id] == nil {
            throw FormatIssue(chunk: list.path, byteOffset: list.headerOffset, reason: "no '\(id)' chunk")
        }
        return chunks
    }

    /// INFO: the version and the strings. Unknown sub-chunks are ignored, as the spec asks
    /// (FluidSynth 2.3 refuses the whole font instead).
    private mutating func readInfo(_ list: RIFFChunk) throws(FormatIssue) -> SoundFontInfo {
        let chunks = try chunksByID(list, required: [])
        var info = SoundFontInfo()
        if let ifil = chunks["ifil"] {
            guard ifil.size == 4 else {
                throw FormatIssue(chunk: ifil.path, byteOffset: ifil.headerOffset, reason: "\(ifil.size) bytes, a version is 4")
            }
            info.versionMajor = Int(reader.uint16(ifil.body.lowerBound))
            info.versionMinor = Int(reader.uint16(ifil.body.lowerBound + 2))
            guard info.versionMajor == 2 || info.versionMajor == 3 else {
                throw FormatIssue(
                    chunk: ifil.path, byteOffset: ifil.headerOffset,
                    reason: "version \(info.versionMajor).\(info.versionMinor): only SoundFont 2 and SF3 (3.x) are read")
            }
        } else {
            warnings.append("INFO: no ifil (version) chunk; read as SoundFont 2.01")
        }
        info.soundEngine = string(chunks["isng"])
        info.name = string(chunks["INAM"])
        info.rom = string(chunks["irom"])
        info.creationDate = string(chunks["ICRD"])
        info.engineers = string(chunks["IENG"])
        info.product = string(chunks["IPRD"])
        info.copyright = string(chunks["ICOP"])
        info.comment = string(chunks["ICMT"], limit: Self.maxCommentBytes)
        info.software = string(chunks["ISFT"])
        return info
    }

    private mutating func string(_ chunk: RIFFChunk?, limit: Int = maxInfoStringBytes) -> String {
        guard let chunk else { return "" }
        if chunk.size > limit {
            warnings.append("\(chunk.path) at byte \(chunk.headerOffset): \(chunk.size) bytes, cut to the \(limit) the spec allows")
        }
        return reader.name(chunk.body.lowerBound, length: min(chunk.size, limit))
    }

    /// sdta: the smpl pool, and sm24 when it is usable (spec §6.2: version ≥ 2.04 and one byte per
    /// smpl point, padded to even); an unusable sm24 is ignored with a warning and the 16 bits play.
    private mutating func readSampleData(_ list: RIFFChunk, info: SoundFontInfo) throws(FormatIssue) -> (Range<Int>, Range<Int>?) {
        let chunks = try chunksByID(list, required: [])
        guard let smpl = chunks["smpl"] else {
            warnings.append("sdta at byte \(list.headerOffset): no smpl chunk; no sample can play")
            return (list.body.upperBound..<list.body.upperBound, nil)
        }
        guard let sm24 = chunks["sm24"] else { return (smpl.body, nil) }
        let points = smpl.size / 2
        let usableVersion = info.versionMajor == 2 && info.versionMinor >= 4
        guard usableVersion, !info.isSF3 else {
            if !usableVersion {
                warnings.append("\(sm24.path) at byte \(sm24.headerOffset): 24-bit data in a version \(info.versionText) file, ignored")
            }
            return (smpl.body, nil)
        }
        guard sm24.size == points || sm24.size == points + points % 2 else {
            warnings.append(
                "\(sm24.path) at byte \(sm24.headerOffset): \(sm24.size) bytes for \(points) sample points; 24-bit data ignored, 16 bits play")
            return (smpl.body, nil)
        }
        return (smpl.body, sm24.body)
    }
}
