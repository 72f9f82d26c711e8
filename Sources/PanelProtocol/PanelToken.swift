import Foundation

/// The secret a page needs when the panel listens on an address other than loopback: 128 random
/// bits as 32 hex digits, made at first start and kept in the user's config directory (0600).
public enum PanelToken {
    public static func generate() -> String {
        var rng = SystemRandomNumberGenerator()  // getrandom(2)
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &rng)) }.joined()
    }

    /// Compares in time independent of where the strings differ.
    public static func matches(_ given: String?, _ expected: String) -> Bool {
        guard let given else { return false }
        let a = Array(given.utf8), b = Array(expected.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for i in 0..<b.count { difference |= b[i] ^ (i < a.count ? a[i] : 0) }
        return difference == 0
    }
}

/// The token's file: `panel-token` in `${XDG_CONFIG_HOME:-~/.config}/audiograph/`, mode 0600 in a
/// 0700 directory. A file others could read is not trusted: a new token replaces it.
public struct PanelTokenStore: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    public init(environment: [String: String]) {
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "\(environment["HOME"] ?? "/root")/.config"
        self.init(path: "\(config)/audiograph/panel-token")
    }

    /// The stored token, or a new one written to the file; `created` says which (print it once).
    public func loadOrCreate() throws(PanelError) -> (token: String, created: Bool) {
        if let token = try load() { return (token, false) }
        let token = PanelToken.generate()
        try write(token)
        return (token, true)
    }

    /// nil when there is no usable file (absent, or readable by others: then it is removed).
    func load() throws(PanelError) -> String? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw PanelError("cannot read the panel token \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid() else {
            throw PanelError("the panel token \(path) is not a regular file of this user; remove it")
        }
        if info.st_mode & 0o077 != 0 {
            unlink(path)
            return nil
        }
        var bytes = [UInt8](repeating: 0, count: 128)
        let n = read(fd, &bytes, bytes.count)
        let text = n > 0 ? String(decoding: bytes[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : ""
        guard text.count == 32, text.allSatisfy(\.isHexDigit) else {
            throw PanelError("the panel token \(path) is not 32 hex digits; remove it and a new one is made")
        }
        return text
    }

    private func write(_ token: String) throws(PanelError) {
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch { throw PanelError("cannot create \(directory) for the panel token: \(error.localizedDescription)") }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw PanelError("cannot write the panel token \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let line = Array((token + "\n").utf8)
        guard line.withUnsafeBytes({ Foundation.write(fd, $0.baseAddress, $0.count) }) == line.count, fsync(fd) == 0 else {
            unlink(path)
            throw PanelError("cannot write the panel token \(path): \(String(cString: strerror(errno)))")
        }
    }
}
