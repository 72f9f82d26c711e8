import Foundation

/// The local control channel between a running `play` and the `set`/`status` commands: a Unix
/// stream socket in a user-only directory, one request line and one reply per connection.
/// Replies start with "ok" or "error: ".
enum ControlSocket {
    /// `$XDG_RUNTIME_DIR/audiograph/control.sock`, else `/tmp/audiograph-<uid>/control.sock`.
    static var defaultPath: String {
        let base = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].map { "\($0)/audiograph" } ?? "/tmp/audiograph-\(getuid())"
        return "\(base)/control.sock"
    }

    static func address(_ path: String) -> sockaddr_un? {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return addr
    }

    /// Client side: sends `request`, returns the reply. Errors say plainly when nothing runs.
    static func send(_ request: String, path: String = defaultPath) throws -> String {
        guard var addr = address(path) else { throw InstrumentError("control socket path too long: \(path)") }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw InstrumentError("socket(): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let connected = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            throw InstrumentError("AudioGraph is not running (no control socket at \(path)); start it with `audiograph play`")
        }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let line = Array((request + "\n").utf8)
        _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        shutdown(fd, Int32(SHUT_WR))
        var reply = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { break }
            reply += chunk[0..<n]
        }
        return String(decoding: reply, as: UTF8.self)
    }
}

/// Server side, on its own thread: accepts connections and answers through `handle`.
final class ControlServer: @unchecked Sendable {
    let path: String
    private let fd: Int32
    private let handle: @Sendable (String) -> String

    init(path: String = ControlSocket.defaultPath, handle: @escaping @Sendable (String) -> String) throws {
        self.path = path
        self.handle = handle
        let dir = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        chmod(dir, 0o700)
        unlink(path)
        guard var addr = ControlSocket.address(path) else { throw InstrumentError("control socket path too long: \(path)") }
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw InstrumentError("socket(): \(String(cString: strerror(errno)))") }
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw InstrumentError("cannot listen on \(path): \(reason) (is another AudioGraph running?)")
        }
        chmod(path, 0o600)
    }

    /// Starts the accept loop on a detached thread.
    func start() {
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 {
                    if errno == EINTR { continue }
                    return
                }
                serve(client)
            }
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var request = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 1024)
        while request.count < 65536, !request.contains(10) {
            let n = read(client, &chunk, chunk.count)
            if n <= 0 { break }
            request += chunk[0..<n]
        }
        let text = String(decoding: request, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let reply = Array((handle(text) + "\n").utf8)
        _ = reply.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
    }

    func shutdown() {
        close(fd)
        unlink(path)
    }
}
