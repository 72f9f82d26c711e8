#if canImport(Glibc)
    import Glibc
#endif

/// A fresh directory under /tmp for one test, removed (with its contents) on deinit.
final class TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/presets-test-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else { throw FixtureError(description: "mkdtemp failed: \(errno)") }
        path = String(cString: created)
    }

    deinit { removeTree(path) }

    /// Creates `relativePath` (and its parent directories) holding `bytes`; returns the full path.
    @discardableResult
    func write(_ bytes: [UInt8], to relativePath: String) throws -> String {
        let full = path + "/" + relativePath
        try makeDirectories(String(full[..<(full.lastIndex(of: "/") ?? full.endIndex)]))
        guard let file = fopen(full, "wb") else { throw FixtureError(description: "cannot create \(full)") }
        defer { fclose(file) }
        guard fwrite(bytes, 1, bytes.count, file) == bytes.count else {
            throw FixtureError(description: "cannot write \(full)")
        }
        return full
    }

    /// Creates `relativePath` as an empty file.
    @discardableResult
    func touch(_ relativePath: String) throws -> String { try write([], to: relativePath) }

    func makeDirectories(_ full: String) throws {
        var current = ""
        for component in full.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw FixtureError(description: "mkdir \(current): \(errno)")
            }
        }
    }

    private func removeTree(_ directory: String) {
        if let handle = opendir(directory) {
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name == "." || name == ".." { continue }
                let child = directory + "/" + name
                if entry.pointee.d_type == UInt8(DT_DIR) { removeTree(child) } else { unlink(child) }
            }
            closedir(handle)
        }
        rmdir(directory)
    }
}
