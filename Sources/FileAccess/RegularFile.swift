import MemberwiseInit
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a file could not be used: the path and the reason, one line, ready to show a user
/// (`AudioFiles` uses it as `AudioFileError` for reading, writing and converting too).
@PublicInit
public struct FileAccessError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String { "\(PrintableText.escaped(path)): \(reason)" }
}

/// Opening files that come from outside (presets, instruments, MIDI songs, samples) so that no
/// path can hang or exhaust the process: the file is opened with `O_NONBLOCK` (a FIFO or a device
/// cannot block `open`), checked with `fstat` to be a regular file, and its size is checked against
/// the caller's limit before a byte is read. It is its own target, below every reader, so that
/// MIDI, Presets, AudioFiles and the app share one implementation. Control thread only.
public enum RegularFile {
    /// An open, blocking-mode descriptor of a regular file no larger than the limit, and its size.
    /// The caller owns `descriptor` and must `close` it (or hand it to a library that does).
    public struct Opened: Sendable {
        public var descriptor: Int32
        public var size: Int
    }

    /// Opens `path` read-only after checking it is a regular file of at most `maxBytes` bytes.
    /// `what` names the kind of file in the messages ("preset", "MIDI file"…).
    public static func open(_ path: String, maxBytes: Int, what: String = "file") throws(FileAccessError) -> Opened {
        try refuseNUL(path)
        let descriptor = systemOpen(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileAccessError(path: path, reason: errorText()) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = errorText()
            close(descriptor)
            throw FileAccessError(path: path, reason: "cannot stat: \(reason)")
        }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else {
            close(descriptor)
            throw FileAccessError(path: path, reason: "is \(kindName(type)), not a regular file; give the path of \(article(what)) \(what)")
        }
        let size = Int(status.st_size)
        guard size <= maxBytes else {
            close(descriptor)
            throw FileAccessError(
                path: path, reason: "\(what) is \(size) bytes, more than the \(byteText(maxBytes)) allowed")
        }
        // Regular files never block; clear the flag so libraries given the descriptor see a plain file.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        OpenedFiles.record(FileIdentity(status), path: path, what: what)
        return Opened(descriptor: descriptor, size: size)
    }

    /// The whole file, checked as by `open`. Reads at most `maxBytes` even if the file grows meanwhile.
    public static func read(_ path: String, maxBytes: Int, what: String = "file") throws(FileAccessError) -> [UInt8] {
        let opened = try open(path, maxBytes: maxBytes, what: what)
        defer { close(opened.descriptor) }
        var bytes = [UInt8](repeating: 0, count: opened.size)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { systemRead(opened.descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileAccessError(path: path, reason: "read error: \(errorText())")
            }
            if count == 0 { break }  // shrank while reading: keep what is there
            filled += count
        }
        return Array(bytes.prefix(filled))
    }

    /// A path is handed to the system as a C string, which ends at the first NUL: "a.wav\0b" would
    /// silently open "a.wav". Such a path (only a file's contents can carry one) is refused.
    public static func refuseNUL(_ path: String) throws(FileAccessError) {
        guard !path.utf8.contains(0) else {
            throw FileAccessError(path: path, reason: "the path contains a NUL byte; no file can have that name")
        }
    }

    static func article(_ noun: String) -> String { "aeiou".contains(noun.first ?? "x") ? "an" : "a" }

    static func kindName(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    /// "64 MB", "1.5 kB", "12 bytes".
    public static func byteText(_ count: Int) -> String {
        if count >= 1 << 20 { return "\(count >> 20) MB" }
        if count >= 1 << 10 { return "\(count >> 10) kB" }
        return "\(count) bytes"
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}

// The system calls under other names: inside `RegularFile`, `open` and `read` are its own methods.
private func systemOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
