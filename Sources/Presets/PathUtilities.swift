#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Lexical POSIX path helpers and the few file-system queries the resolver needs.
/// Control thread only (`getcwd`, `stat`, `getenv`).
enum PathUtilities {
    /// Absolute and lexically normalised: `.` removed, `..` applied, slashes collapsed.
    /// Relative paths are taken relative to the current directory.
    static func absolute(_ path: String) -> String {
        normalized(path.hasPrefix("/") ? path : currentDirectory() + "/" + path)
    }

    static func normalized(_ path: String) -> String {
        var components: [Substring] = []
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..": if !components.isEmpty { components.removeLast() }
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }

    /// The directory part of an absolute normalised path (`/` for `/x`).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// `directory` and each of its parents up to and including `/`.
    static func selfAndAncestors(_ directory: String) -> [String] {
        var result = [directory]
        var current = directory
        while current != "/" {
            current = Self.directory(of: current)
            result.append(current)
        }
        return result
    }

    static func join(_ directory: String, _ relative: String) -> String {
        normalized(directory + "/" + relative)
    }

    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// "a directory", "a FIFO"… when something other than a regular file is at `path`; nil when
    /// nothing is there or it is a regular file.
    static func nonRegularKind(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR, S_IFBLK: return "a device"
        default: return "not a regular file"
        }
    }

    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    private static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
