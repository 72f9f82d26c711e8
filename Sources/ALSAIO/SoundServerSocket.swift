#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whether a sound server accepts clients, told by a plain `connect()` on its Unix socket: a few
/// microseconds, where opening the ALSA plugin against a server that is away costs up to tens of
/// milliseconds of CPU (the `pulse` plugin builds a libpulse context each time). While a server is
/// away, `play` asks this every 100 ms and opens the plugin only once the socket answers
/// (`ServerReopenGate`). Control thread.
public struct SoundServerSocket: Sendable, Equatable {
    /// Where the server may listen, in the order its client library tries them.
    public let paths: [String]

    /// What `probe()` found.
    public enum Probe: Sendable, Equatable {
        /// One of the sockets accepted a connection: the server is (at least) listening.
        case answers
        /// None did (no such file, connection refused): the server is not there.
        case silent
        /// There is nothing to ask (a TCP server, a location not known): open the plugin to find out.
        case unknown
    }

    /// The sockets of the server behind `route`, from the environment as its client library
    /// reads it; nil when they cannot be known (JACK, a card, a PulseAudio server named by host).
    /// - PipeWire (0.3): the remote the plugin names (`pipewire-0` by default; also
    ///   `$PIPEWIRE_REMOTE`) in `$PIPEWIRE_RUNTIME_DIR`, `$XDG_RUNTIME_DIR` or `$USERPROFILE`, and
    ///   `/run/pipewire` (newer versions' system instance);
    /// - PulseAudio (and pipewire-pulse): `$PULSE_SERVER` when it lists only Unix sockets, else
    ///   `native` in `$PULSE_RUNTIME_PATH` or `$XDG_RUNTIME_DIR/pulse`, and the system instance's
    ///   `/run/pulse/native`.
    public init?(route: PCMRoute, environment: [String: String]) {
        var paths: [String] = []
        switch route {
        case .pipewire:
            let names = ["pipewire-0"] + [environment["PIPEWIRE_REMOTE"]].compactMap { $0 }.filter { !$0.isEmpty }
            let directory = [environment["PIPEWIRE_RUNTIME_DIR"], environment["XDG_RUNTIME_DIR"], environment["USERPROFILE"]]
                .lazy.compactMap { $0 }.first { $0.hasPrefix("/") }
            for name in names {
                if name.hasPrefix("/") {
                    paths.append(name)
                } else {
                    if let directory { paths.append(directory + "/" + name) }
                    paths.append("/run/pipewire/" + name)
                }
            }
        case .pulse:
            if let servers = environment["PULSE_SERVER"], !servers.isEmpty {
                for server in servers.split(separator: " ") {
                    let path = server.hasPrefix("unix:") ? server.dropFirst(5) : server
                    guard path.hasPrefix("/") else { return nil }  // tcp:, a host name, {machine-id}…
                    paths.append(String(path))
                }
            } else {
                if let runtime = environment["PULSE_RUNTIME_PATH"], runtime.hasPrefix("/") {
                    paths.append(runtime + "/native")
                } else if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
                    paths.append(runtime + "/pulse/native")
                } else {
                    return nil  // libpulse falls back to a directory under $HOME named after the machine id
                }
                paths.append("/run/pulse/native")
            }
        case .jack, .other, .undefined:
            return nil
        }
        self.paths = paths
    }

    public init(paths: [String]) { self.paths = paths }

    /// Connects to each socket in turn and closes at once; `.answers` at the first that accepts.
    public func probe() -> Probe {
        for path in paths where Self.accepts(path) { return .answers }
        return .silent
    }

    /// A non-blocking connect to the Unix stream socket at `path`: true when it was accepted (or
    /// the listener's queue is full: it is there, only busy).
    static func accepts(_ path: String) -> Bool {
        guard let address = UnixSocketAddress(path: path) else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let result = address.withSocketAddress { connect(fd, $0, $1) }
        return result == 0 || errno == EAGAIN || errno == EINPROGRESS
    }
}
