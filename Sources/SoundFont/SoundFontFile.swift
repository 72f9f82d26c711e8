/// A SoundFont 2.04 (SF2) or SF3 file, parsed and validated: its presets, instruments, zones and
/// sample headers as value types, and access to its sample data, which stays in the file (mapped,
/// read on need) until `sampleFrames(_:)` is asked for a sample.
///
/// Loading is control-thread work (file I/O, allocation). The loaded value is immutable and
/// `Sendable`: any thread may read the model and call `sampleFrames(_:)` concurrently (a
/// background level builder, for instance). It never touches the render thread's rules.
public struct SoundFontFile: Sendable {
    /// The path it was loaded from (or the label given to `parse`).
    public var path: String
    public var info: SoundFontInfo
    /// Presets in file order (phdr order). Duplicated bank:program pairs are kept; the first wins
    /// in `preset(bank:program:)`, as the spec says.
    public var presets: [SoundFontPreset]
    public var instruments: [SoundFontInstrument]
    /// Sample headers by shdr index (the index a zone's sampleID names), dropped ones included.
    public var samples: [SoundFontSample]
    /// What the loader tolerated, one line each (chunk and offset or preset/instrument/sample named).
    public var warnings: [String]
    /// Features the font uses that are not honoured (linked modulators, ROM samples, …), one line
    /// each with how many; FluidSynth 2.3 honours none of them either.
    public var unsupported: [String]

    let storage: FontStorage
    /// The smpl chunk's body (16-bit little-endian PCM, or SF3 Vorbis streams), in file bytes.
    let sampleBytes: Range<Int>
    /// The sm24 chunk's body when it is used (one low byte per smpl point), else nil.
    let sample24Bytes: Range<Int>?

    /// The largest file accepted: a RIFF size is 32 bits, so no valid SoundFont is larger. Mapping
    /// costs address space, not memory.
    public static let maxFileBytes = Int(UInt32.max) + 8

    /// Control thread. Maps and parses the file at `path`. Throws a one-line `SoundFontError` for a
    /// missing, unreadable or non-regular file and for structure that cannot be read safely;
    /// untidiness real fonts contain becomes `warnings`.
    public static func load(path: String) throws(SoundFontError) -> SoundFontFile {
        let storage: FontStorage
        do {
            storage = try FontStorage(path: path, maxBytes: maxFileBytes)
        } catch {
            throw SoundFontError(error)
        }
        return try parse(storage: storage, path: path)
    }

    /// Control thread. Parses bytes already in memory (copied); `path` labels the messages.
    public static func parse(bytes: [UInt8], path: String) throws(SoundFontError) -> SoundFontFile {
        try parse(storage: FontStorage(copying: bytes), path: path)
    }

    private static func parse(storage: FontStorage, path: String) throws(SoundFontError) -> SoundFontFile {
        do {
            var parser = SoundFontParser(bytes: storage.bytes)
            return try parser.parse(storage: storage, path: path)
        } catch {
            throw error.error(path: path)
        }
    }

    /// Whether `bytes` start like a SoundFont (`RIFF` … `sfbk`), to route a file by content
    /// rather than by its name.
    public static func hasMagic(_ bytes: some Collection<UInt8>) -> Bool {
        let head = Array(bytes.prefix(12))
        return head.count == 12 && head[0..<4].elementsEqual("RIFF".utf8) && head[8..<12].elementsEqual("sfbk".utf8)
    }

    /// The first preset with this bank and program (spec §7.2), or nil.
    public func preset(bank: Int, program: Int) -> SoundFontPreset? {
        presets.first { $0.bank == bank && $0.program == program }
    }
}

/// The INFO list (spec §5): the version, and the strings a font describes itself with.
public struct SoundFontInfo: Sendable, Equatable {
    /// ifil: 2.01 → (2, 1), 2.04 → (2, 4); SF3 files have major 3.
    public var versionMajor = 2
    public var versionMinor = 1
    /// isng, e.g. "EMU8000" (not used for anything).
    public var soundEngine = ""
    /// INAM.
    public var name = ""
    /// irom / ICRD / IENG / IPRD / ICOP / ICMT / ISFT, empty when absent.
    public var rom = ""
    public var creationDate = ""
    public var engineers = ""
    public var product = ""
    public var copyright = ""
    public var comment = ""
    public var software = ""

    public init() {}

    /// SF3: Ogg Vorbis samples.
    public var isSF3: Bool { versionMajor == 3 }
    public var versionText: String { "\(versionMajor).\(versionMinor < 10 ? "0" : "")\(versionMinor)" }
}
