import ALSAIO
import Synchronization
import FileAccess
import Foundation

/// The local control channel between a running `play` and the `set`/`status` commands: a Unix
/// stream socket in a user-only directory, one request line and one reply per connection.
/// Replies start with "ok" or "error: ".
enum ControlSocket {
    static let fileName = "control.sock"

    /// Client side: sends `request`, returns the reply. Errors say plainly when nothing runs, and
    /// refuse a directory someone else could have prepared or a server run by another user.
    static func send(_ request: String, path given: String? = nil) throws -> String {
        let path: String
        if let given {
            path = given
        } else if let directory = try ControlDirectory.existing() {
            path = directory + "/" + fileName
        } else {
            throw InstrumentError("AudioGraph is not running (no control socket in \(ControlDirectory.path())); start it with `audiograph play`")
        }
        guard let addr = UnixSocketAddress(path: path) else { throw InstrumentError("control socket path too long: \(path)") }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw InstrumentError("socket(): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let connected = addr.withSocketAddress { connect(fd, $0, $1) }
        guard connected == 0 else {
            throw InstrumentError("AudioGraph is not running (no control socket at \(path)); start it with `audiograph play`")
        }
        if let owner = peerUser(fd), owner != getuid() {
            throw InstrumentError("will not talk to the control socket \(path): it is served by uid \(owner), not by you (uid \(getuid()))")
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

    /// The user at the other end of a connected Unix socket (as the kernel saw it), nil if unknown.
    static func peerUser(_ fd: Int32) -> uid_t? {
        var credentials = PeerCredentials()
        var size = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0 else { return nil }
        return credentials.uid
    }

    /// Linux's `struct ucred` (Glibc declares it only under _GNU_SOURCE, which Swift's module lacks).
    private struct PeerCredentials {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
    }
}

/// Server side, on its own thread: one poll() loop over the listening socket and every open
/// connection, so a client that never sends, trickles bytes, floods or vanishes cannot hold up the
/// others (or the process: replies never raise SIGPIPE). Each connection gets one request line of
/// at most `maxRequestBytes` within `requestTimeoutNanoseconds`; anything else gets a one-line
/// error and is closed. Requests are answered in arrival order by `handle`, on this thread.
///
/// `@unchecked Sendable`: the connections live in `serve()` on the server's own thread; the rest is
/// immutable or atomic.
public final class ControlServer: @unchecked Sendable {
    public static let maxRequestBytes = 4096
    /// Connections open at once; the next one is told "busy" and closed.
    public static let maxClients = 32
    public static let requestTimeoutNanoseconds: UInt64 = 1_000_000_000

    let path: String
    private let fd: Int32
    private let handle: @Sendable (String) -> String
    private let stopping = Atomic<Bool>(false)

    /// Held (flock) while this instance serves: a second one is refused, not let take over.
    private let lock: Int32
    /// The socket file this instance bound, to remove on exit only if it is still that one.
    private var socketIdentity: FileIdentity?

    /// Another instance already serves in that directory.
    struct AnotherInstance: Error, CustomStringConvertible {
        var path: String
        var description: String {
            "another AudioGraph is running and answers on \(path); stop it first (`audiograph status` shows it)"
        }
    }

    /// In the checked default directory (`ControlDirectory`).
    public convenience init(handle: @escaping @Sendable (String) -> String) throws {
        try self.init(path: ControlDirectory.prepare() + "/" + ControlSocket.fileName, handle: handle)
    }

    /// At `path`, whose directory exists. Refuses (`AnotherInstance`) when an instance holds the
    /// directory's lock or answers on the socket; a stale socket file is replaced.
    public init(path: String, handle: @escaping @Sendable (String) -> String) throws {
        self.path = path
        self.handle = handle
        guard let addr = UnixSocketAddress(path: path) else { throw InstrumentError("control socket path too long: \(path)") }
        let lockPath = (path as NSString).deletingPathExtension + ".lock"
        lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lock >= 0 else { throw InstrumentError("cannot open \(lockPath): \(String(cString: strerror(errno)))") }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0, !Self.answers(path) else {
            close(lock)
            throw AnotherInstance(path: path)
        }
        unlink(path)  // a socket left by an instance that died: nobody listens on it (checked above)
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            close(lock)
            throw InstrumentError("socket(): \(String(cString: strerror(errno)))")
        }
        // Only the owner may connect: umask while binding, so there is no moment of a wider mode.
        let mask = umask(0o177)
        let bound = addr.withSocketAddress { bind(fd, $0, $1) }
        umask(mask)
        guard bound == 0, listen(fd, 64) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            close(lock)
            throw InstrumentError("cannot listen on \(path): \(reason)")
        }
        socketIdentity = FileIdentity.of(path)
    }

    /// Whether something accepts connections on `path` now.
    private static func answers(_ path: String) -> Bool {
        guard let addr = UnixSocketAddress(path: path) else { return false }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        return addr.withSocketAddress { connect(probe, $0, $1) } == 0
    }

    /// Starts the poll loop on a detached thread.
    public func start() {
        SmallStackThread.detach { [self] in serve() }
    }

    /// Stops the loop (within 50 ms) and removes the socket file if it is still the one bound here.
    public func shutdown() {
        stopping.store(true, ordering: .relaxed)
        if let socketIdentity, FileIdentity.of(path) == socketIdentity { unlink(path) }
        socketIdentity = nil
        close(lock)
    }

    private struct Connection {
        let fd: Int32
        let deadline: UInt64
        var request: [UInt8] = []
        /// Answered: whatever else the client sends (past the line, or past the limit) is read and
        /// dropped until it closes or the deadline, since closing on unread data would reset the
        /// connection and lose the reply.
        var draining = false
    }

    private func serve() {
        var connections: [Connection] = []
        while !stopping.load(ordering: .relaxed) {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)] + connections.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            if poll(&fds, nfds_t(fds.count), 50) < 0, errno != EINTR { break }
            let now = MonotonicClock.nanoseconds()
            var open: [Connection] = []
            for (i, var connection) in connections.enumerated() {
                var reply = fds[i + 1].revents != 0 ? receive(&connection) : .waiting
                if case .waiting = reply, now >= connection.deadline {
                    reply = connection.draining ? .closed : .answer("error: no complete request line within \(Self.requestTimeoutNanoseconds / 1_000_000_000) s (send one line ending in a newline)")
                }
                switch reply {
                case .waiting: open.append(connection); continue
                case .answer(let text):
                    Self.respond(connection.fd, text)
                    if now < connection.deadline {  // see `draining`
                        Glibc.shutdown(connection.fd, Int32(SHUT_WR))
                        connection.draining = true
                        open.append(connection)
                        continue
                    }
                case .closed: break
                }
                close(connection.fd)
            }
            connections = open
            guard fds[0].revents & Int16(POLLIN) != 0 else { continue }
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { break }
                _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
                if let peer = ControlSocket.peerUser(client), peer != getuid(), peer != 0 {
                    Self.respond(client, "error: this instance belongs to another user")
                    close(client)
                } else if connections.count < Self.maxClients {
                    connections.append(Connection(fd: client, deadline: now + Self.requestTimeoutNanoseconds))
                } else {
                    Self.respond(client, "error: busy (\(Self.maxClients) requests open); try again")
                    close(client)
                }
            }
        }
        for connection in connections { close(connection.fd) }
        close(fd)
    }

    private enum Progress {
        case waiting
        case answer(String)
        case closed
    }

    /// Reads what has arrived (never more than one byte past the limit). A line ends at a newline
    /// or where the client stopped sending.
    private func receive(_ connection: inout Connection) -> Progress {
        var chunk = [UInt8](repeating: 0, count: 1024)
        while connection.draining {
            let n = read(connection.fd, &chunk, chunk.count)
            if n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) { return .closed }
            if n < 0 { return .waiting }
        }
        while true {
            let room = min(chunk.count, Self.maxRequestBytes + 1 - connection.request.count)
            let n = read(connection.fd, &chunk, room)
            if n < 0 { return errno == EAGAIN || errno == EINTR ? .waiting : .closed }
            if n == 0 { return connection.request.isEmpty ? .closed : .answer(answer(connection.request)) }
            let start = connection.request.count
            connection.request += chunk[0..<n]
            if let newline = connection.request[start...].firstIndex(of: 10) {
                return .answer(answer(Array(connection.request[..<newline])))
            }
            if connection.request.count > Self.maxRequestBytes {
                return .answer("error: request longer than \(Self.maxRequestBytes) bytes without a newline")
            }
        }
    }

    private func answer(_ line: [UInt8]) -> String {
        switch Self.requestText(line) {
        case .success(let text): return handle(text)
        case .failure(let error): return "error: \(error.description)"
        }
    }

    /// The request as text: UTF-8 without control characters (so every error quoting it stays one line).
    static func requestText(_ line: [UInt8]) -> Result<String, InstrumentError> {
        let bytes = line.last == 13 ? line.dropLast() : line[...]
        if let offset = bytes.firstIndex(where: { ($0 < 32 && $0 != 9) || $0 == 127 }) {
            return .failure(InstrumentError("request has control byte 0x\(String(bytes[offset], radix: 16)) at offset \(offset - bytes.startIndex); send one line of text"))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(InstrumentError("request is not UTF-8 text"))
        }
        return .success(text.replacingOccurrences(of: "\t", with: " ").trimmingCharacters(in: .whitespaces))
    }

    /// Sends the reply line without waiting for a client that does not read, and without SIGPIPE.
    private static func respond(_ client: Int32, _ text: String) {
        let reply = Array((text + "\n").utf8)
        _ = reply.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
    }
}
