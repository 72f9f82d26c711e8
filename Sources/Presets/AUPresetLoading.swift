#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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

    private static func readFile(_ path: String) throws(PresetError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }
}
