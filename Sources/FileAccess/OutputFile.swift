#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import CFileWriteback

/// An output written so that nothing is destroyed and nothing pretends: the bytes go to a new
/// temporary file beside the target (created with `O_EXCL`, never through someone's link), which
/// only `commit()` — after `fsync` — renames over the target. Until then a good file already at
/// the path is untouched; a failed write (disk full), an error or SIGINT/SIGTERM/SIGHUP removes
/// the temporary file (`InterruptCleanup`). The target may not be a FIFO, device or directory
/// (refused by name, never opened), nor any file this process has read (`OpenedFiles`).
/// Control thread.
public final class OutputFile {
    /// The path as given (for messages), the file it names (its symlinks followed: writing through a
    /// link replaces what it points to, as writing in place would), and the temporary file.
    public let path: String
    public let targetPath: String
    public let temporaryPath: String
    /// Read-write descriptor of the temporary file (an encoder may patch what it wrote); closed by `commit` or `discard`.
    public let descriptor: Int32
    private var finished = false

    public init(_ path: String) throws(FileAccessError) {
        let target = try Self.checkTarget(path)
        let directory = Self.directory(of: target.path)
        var created: (Int32, String)?
        for attempt in 0..<100 {
            let name = "\(directory)/.audiograph-\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 16)).partial"
            // 0666 less the umask: the mode any new file gets; a file replaced keeps its own below.
            let fd = Glibc.open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o666)
            if fd >= 0 {
                created = (fd, name)
                break
            }
            if errno != EEXIST || attempt == 99 {
                throw FileAccessError(path: path, reason: "cannot create a file in \(directory): \(Self.errorText())")
            }
        }
        guard let (fd, name) = created else { throw FileAccessError(path: path, reason: "cannot create a temporary file") }
        if let replaced = target.existing {
            _ = fchmod(fd, replaced.st_mode & 0o777)
            _ = fchown(fd, replaced.st_uid, replaced.st_gid)  // only root can; others own what they write
        }
        self.path = path
        targetPath = target.path
        temporaryPath = name
        descriptor = fd
        InterruptCleanup.arm(temporaryPath)
    }

    deinit { discard() }

    /// Starts the disk writing what has been written since the last call, once that is at least
    /// `writebackBytes`, without waiting for it (`sync_file_range`): `commit`'s `fsync` then finds
    /// little left, where it waited for the whole file. True when it started some. One thread at a
    /// time; best effort (a file system that cannot leaves it all to `fsync`).
    @discardableResult
    public func startWriteback() -> Bool {
        guard !finished else { return false }
        var status = stat()
        guard fstat(descriptor, &status) == 0, Int(status.st_size) - writtenBack >= Self.writebackBytes else { return false }
        let size = Int(status.st_size)
        _ = cfilewriteback_start(descriptor, Int64(writtenBack), Int64(size - writtenBack))
        writtenBack = size
        return true
    }

    /// Bytes handed to the disk by `startWriteback` so far.
    private var writtenBack = 0
    public static let writebackBytes = 4 << 20

    /// Makes the written bytes the file at the target: `fsync`, `rename`, `fsync` of the directory.
    /// On failure the temporary file is removed and the target left as it was.
    public func commit() throws(FileAccessError) {
        guard !finished else { throw FileAccessError(path: path, reason: "output already finished") }
        if fsync(descriptor) != 0 || close(descriptor) != 0 {
            let reason = Self.errorText()
            discard(closing: false)
            throw FileAccessError(path: path, reason: "cannot write: \(reason)")
        }
        do {
            _ = try Self.checkTarget(path)  // an input opened since, or a FIFO put there meanwhile
        } catch {
            discard(closing: false)
            throw error
        }
        guard rename(temporaryPath, targetPath) == 0 else {
            let reason = Self.errorText()
            discard(closing: false)
            throw FileAccessError(path: path, reason: "cannot rename the finished file into place: \(reason)")
        }
        finished = true
        InterruptCleanup.disarm(temporaryPath)
        let directory = Glibc.open(Self.directory(of: targetPath), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)  // the rename itself durable; some file systems cannot, which is no failure
            close(directory)
        }
    }

    /// Removes the temporary file; the target keeps what it had. Safe to call twice.
    public func discard() { discard(closing: true) }

    private func discard(closing: Bool) {
        guard !finished else { return }
        finished = true
        if closing { close(descriptor) }
        unlink(temporaryPath)
        InterruptCleanup.disarm(temporaryPath)
    }

    /// Checks that `path` can be written without blocking or destroying what it must not, and
    /// returns the file it names (symlinks followed) and its status if it exists.
    public static func checkTarget(_ path: String) throws(FileAccessError) -> (path: String, existing: stat?) {
        try RegularFile.refuseNUL(path)
        guard !path.isEmpty else { throw FileAccessError(path: path, reason: "empty output path") }
        var current = path
        var status = stat()
        for _ in 0..<40 {
            guard lstat(current, &status) == 0 else {
                guard errno == ENOENT else { throw FileAccessError(path: path, reason: errorText()) }
                try checkDirectory(of: current, path: path)
                return (current, nil)
            }
            guard status.st_mode & S_IFMT == S_IFLNK else {
                try checkExisting(status, path: path)
                try checkDirectory(of: current, path: path)
                return (current, status)
            }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count >= 0 else { throw FileAccessError(path: path, reason: errorText()) }
            let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = link.hasPrefix("/") ? link : directory(of: current) + "/" + link
        }
        throw FileAccessError(path: path, reason: String(cString: strerror(ELOOP)))
    }

    private static func checkExisting(_ status: stat, path: String) throws(FileAccessError) {
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else {
            throw FileAccessError(path: path, reason: "is \(RegularFile.kindName(type)), not a regular file; give the path of a file to write")
        }
        if let input = OpenedFiles.entry(for: FileIdentity(status)) {
            let same = input.path == path ? "" : " \(PrintableText.escaped(input.path))"
            throw FileAccessError(path: path, reason: "is the \(input.what)\(same) this command reads; refusing to write over an input")
        }
    }

    private static func checkDirectory(of target: String, path: String) throws(FileAccessError) {
        let directory = directory(of: target)
        var status = stat()
        guard stat(directory, &status) == 0 else {
            throw FileAccessError(path: path, reason: "cannot write in \(PrintableText.escaped(directory)): \(errorText())")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw FileAccessError(path: path, reason: "\(PrintableText.escaped(directory)) is not a directory")
        }
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
