import Foundation

/// sd_notify(3) for a `Type=notify` unit, without libsystemd: each message is one datagram to the
/// socket systemd names in `$NOTIFY_SOCKET` (a path, or an abstract socket written `@name`).
/// Without that variable (not under systemd) there is no notifier. Control thread only.
final class SystemdNotifier {
    private let socket: Int32
    private let address: sockaddr_un
    private let addressLength: socklen_t

    /// nil when `NOTIFY_SOCKET` is unset or unusable (too long a path, no socket).
    init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let name = environment["NOTIFY_SOCKET"], name.count > 1, name.hasPrefix("/") || name.hasPrefix("@") else { return nil }
        var path = Array(name.utf8)
        let abstract = path[0] == UInt8(ascii: "@")
        if abstract { path[0] = 0 }  // the abstract namespace: a leading NUL, no terminator
        var address = sockaddr_un()
        guard path.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        self.address = address
        addressLength = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + path.count + (abstract ? 0 : 1))
        socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { return nil }
    }

    deinit { Glibc.close(socket) }

    /// Sends `READY=1`, `STATUS=…`, `STOPPING=1` (newline-separated assignments); best effort:
    /// a notification that cannot be delivered must not stop the instrument.
    func send(_ assignments: String...) {
        let bytes = Array(assignments.joined(separator: "\n").utf8)
        _ = withUnsafePointer(to: address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddrPointer in
                bytes.withUnsafeBytes { sendto(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), sockaddrPointer, addressLength) }
            }
        }
    }
}
