import AudioTestSupport
import Foundation
import Testing

/// The executable as a system service and an installed program meet it: which instrument it finds
/// from elsewhere, and what it tells systemd (sd_notify datagrams on `NOTIFY_SOCKET`).
@Suite struct SystemIntegrationTests {
    let cli = CommandLineTests()
    let scratch = TemporaryDirectory()

    @Test func aUserInstrumentInTheXDGConfigDirectoryOverridesTheBundledOne() throws {
        let config = scratch.file("config")
        try FileManager.default.createDirectory(atPath: "\(config)/audiograph", withIntermediateDirectories: true)
        try Data(#"{ "name": "mine", "preset": "mine.aupreset" }"#.utf8).write(to: URL(fileURLWithPath: "\(config)/audiograph/default.json"))
        let environment = ["XDG_CONFIG_HOME": config, "AUDIOGRAPH_HOME": ""]
        let mine = try cli.run(["render", "--out", scratch.file("a.wav")], environment: environment, directory: scratch.path)
        #expect(mine.status != 0 && mine.output.contains("\(config)/audiograph/mine.aupreset"), "\(mine.output)")
        // Without it, from a directory that is not the checkout, the bundled instrument is found from the binary.
        try FileManager.default.removeItem(atPath: "\(config)/audiograph/default.json")
        let bundled = try cli.run(["render", "--out", scratch.file("b.wav")], environment: environment, directory: scratch.path)
        #expect(bundled.status == 0 && bundled.output.contains("rendered 2"), "\(bundled.output)")
    }

    /// `play` under `Type=notify`: READY=1 with a status once playing, STATUS= while it runs,
    /// STOPPING=1 last; to a socket path and to an abstract socket (`@name`).
    @Test(arguments: [false, true])
    func playTellsSystemdWhenItIsReadyAndWhenItStops(abstract: Bool) throws {
        let name = abstract ? "@audiograph-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))" : scratch.file("notify.sock")
        let listener = try DatagramListener(name)
        chmod(scratch.path, 0o700)  // a runtime directory, as the control socket requires
        let r = try cli.run(["play", "--device", "paced", "--duration", "1.5", "--rt-priority", "0", "--no-wait-for-device"],
                            environment: ["NOTIFY_SOCKET": name, "XDG_RUNTIME_DIR": scratch.path])
        #expect(r.status == 0, "\(r.output)")
        let messages = listener.drain()
        #expect(messages.first?.hasPrefix("READY=1\nSTATUS=playing: paced null device") == true, "\(messages)")
        #expect(messages.dropFirst().dropLast().contains { $0.hasPrefix("STATUS=") && $0.count > 20 }, "\(messages)")
        #expect(messages.last == "STOPPING=1", "\(messages)")
    }
}

/// A bound AF_UNIX datagram socket (a path, or `@name` for the abstract namespace) to read what was sent.
final class DatagramListener {
    private let fd: Int32

    init(_ name: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(name.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + path.count)
        let status = withUnsafePointer(to: address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard fd >= 0, status == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EINVAL) }
    }

    deinit { close(fd) }

    /// Every datagram queued so far, oldest first.
    func drain() -> [String] {
        var messages: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard n > 0 else { return messages }
            messages.append(String(decoding: buffer[0..<n], as: UTF8.self))
        }
    }
}
