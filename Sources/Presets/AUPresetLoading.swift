import FileAccess

extension AUPreset {
    /// Reads and decodes an `.aupreset` file.
    ///
    /// Control thread only (file I/O, allocation). Throws a `PresetError` naming the file for an
    /// unreadable file, a binary plist, malformed XML, a non-plist, a non-sampler preset or a
    /// wrongly typed value; everything merely odd becomes an entry in `warnings`.
    public static func load(path: String) throws(PresetError) -> AUPreset {
        try parse(data: try readFile(path), path: path)
    }

    /// Decodes preset bytes already in memory; `path` is used for messages and as the base of
    /// relative sample paths. Control thread only.
    public static func parse(data: [UInt8], path: String) throws(PresetError) -> AUPreset {
        let root = try PropertyList.parse(data: data, path: path)
        var decoder = PresetDecoder(file: path)
        return try decoder.decode(root)
    }

    /// Real presets are a few hundred kB at most; a larger file is refused before it is read.
    public static let maxFileBytes = 16 << 20

    private static func readFile(_ path: String) throws(PresetError) -> [UInt8] {
        do {
            return try RegularFile.read(path, maxBytes: maxFileBytes, what: "preset")
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
    }
}
