import FileAccess
import Foundation

/// The directory of the control socket, trusted only if nobody else can have put anything in it:
/// `$XDG_RUNTIME_DIR/audiograph`, else `${TMPDIR:-/tmp}/audiograph-<uid>` (cron, `su`, ssh
/// without a login session, containers). Both it and `$XDG_RUNTIME_DIR` must be real directories
/// (not symlinks) owned by this user with no access for anyone else (mode 0700), as systemd makes
/// runtime directories and OpenSSH checks its sockets' homes; the directory holding the fallback
/// must be sticky if others may write in it (as /tmp is), so nobody can rename ours away.
enum ControlDirectory {
    static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") { return runtime + "/audiograph" }
        let temporary = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        return (temporary as NSString).standardizingPath + "/audiograph-\(getuid())"
    }

    /// The server's side: creates the directory (0700) if it is not there, then checks it.
    static func prepare() throws(InstrumentError) -> String {
        let directory = path()
        try checkParent(of: directory)
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw InstrumentError("cannot create the control socket directory \(directory): \(String(cString: strerror(errno)))")
        }
        try check(directory)
        return directory
    }

    /// The client's side: the directory checked, or nil if there is none (nothing running).
    static func existing() throws(InstrumentError) -> String? {
        let directory = path()
        var status = stat()
        guard lstat(directory, &status) == 0 || errno != ENOENT else { return nil }
        try checkParent(of: directory)
        try check(directory)
        return directory
    }

    /// A directory, not a link, ours, mode 0700 exactly; else refused with the path and the reason.
    static func check(_ directory: String) throws(InstrumentError) {
        var status = stat()
        guard lstat(directory, &status) == 0 else {
            throw refusal(directory, String(cString: strerror(errno)))
        }
        let type = status.st_mode & S_IFMT
        guard type != S_IFLNK else { throw refusal(directory, "it is a symbolic link") }
        guard type == S_IFDIR else { throw refusal(directory, "it is not a directory") }
        guard status.st_uid == getuid() else { throw refusal(directory, "it belongs to uid \(status.st_uid), not to you (uid \(getuid()))") }
        let mode = status.st_mode & 0o7777
        guard mode == 0o700 else { throw refusal(directory, "its mode is \(String(mode, radix: 8)), not 700: others could reach it") }
    }

    /// `$XDG_RUNTIME_DIR` is checked as our own directory is; another parent (/tmp) may be shared,
    /// but then only sticky, so that what we create in it stays ours.
    private static func checkParent(of directory: String) throws(InstrumentError) {
        let parent = (directory as NSString).deletingLastPathComponent
        if let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"], directory == runtime + "/audiograph" {
            try check(runtime)
            return
        }
        var status = stat()
        guard stat(parent, &status) == 0 else { throw refusal(parent, String(cString: strerror(errno))) }
        let othersWrite = status.st_mode & 0o022 != 0, sticky = status.st_mode & S_ISVTX != 0
        guard !othersWrite || sticky else {
            throw refusal(parent, "others may write in it and it is not sticky: they could replace the control socket's directory")
        }
    }

    private static func refusal(_ path: String, _ reason: String) -> InstrumentError {
        InstrumentError("will not use the control socket directory \(PrintableText.escaped(path)): \(reason)")
    }
}
