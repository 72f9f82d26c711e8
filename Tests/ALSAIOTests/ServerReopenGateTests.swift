import ALSAIO
import Foundation
import Glibc
import Testing

@Suite struct ServerReopenGateTests {
    let second: UInt64 = 1_000_000_000
    let attempt: UInt64 = 100_000_000  // the attempts' pace

    /// Runs attempts every 100 ms from `start` for `count` attempts with the socket as `probe(t)`
    /// and opens failing unless `succeeds(t)` (the attempts end there); returns the times at which
    /// the plugin was opened.
    func opens(
        _ gate: inout ServerReopenGate, from start: UInt64, count: Int, probe: (UInt64) -> SoundServerSocket.Probe,
        succeeds: (UInt64) -> Bool = { _ in false }
    ) -> [UInt64] {
        var times: [UInt64] = []
        for i in 0..<count {
            let now = start + UInt64(i) * attempt
            let answer = probe(now)
            guard gate.shouldOpen(now: now, probe: answer) else { continue }
            times.append(now)
            guard !succeeds(now) else {
                gate.opened(now: now, probe: answer)
                break
            }
            gate.failed(now: now, probe: answer)
        }
        return times
    }

    @Test func aTrustedSilentSocketIsAllThatIsAskedAndItsAnswerOpensAtOnce() {
        var gate = ServerReopenGate()
        // The plugin opened while the socket answered: the socket is the server's.
        let first = gate.shouldOpen(now: second, probe: .answers)
        #expect(first)
        gate.opened(now: second, probe: .answers)
        // The server dies for 60 s: not one open; it answers at 62 s: opened on that attempt.
        let back: UInt64 = 62 * second
        let times = opens(&gate, from: 2 * second, count: 700, probe: { $0 < back ? .silent : .answers }, succeeds: { _ in true })
        #expect(times.first == back)
    }

    @Test func anUntrustedSilentSocketStillLetsThePluginOpenEveryFourSeconds() {
        // At start, before the plugin ever opened: the first attempt opens (its error is the
        // message the user reads), then the plugin every 4 s while the socket stays silent.
        var gate = ServerReopenGate()
        let times = opens(&gate, from: 0, count: 100, probe: { _ in .silent })
        #expect(times == [0, 40 * attempt, 80 * attempt])
    }

    @Test func aPluginOpeningWhileTheSocketIsSilentRetiresTheProbe() {
        // The server listens somewhere the probe does not look (configured in ALSA's files).
        var gate = ServerReopenGate()
        let first = gate.shouldOpen(now: 0, probe: .silent)
        #expect(first)
        gate.opened(now: 0, probe: .silent)
        // Lost later: every attempt opens the plugin again, with the failures' back-off.
        let times = opens(&gate, from: second, count: 40, probe: { _ in .silent })
        #expect(times.count > 4 && times.first == second)
    }

    @Test func aSocketThatAnswersWhileOpeningFailsIsRetriedWithBackOff() {
        var gate = ServerReopenGate()
        gate.opened(now: 0, probe: .answers)
        // Listening, but every open fails for 10 s (a server still starting, or refusing us):
        // 100 ms, 200 ms, 400 ms, 800 ms, then once a second — not a hundred opens.
        let times = opens(&gate, from: second, count: 100, probe: { _ in .answers })
        #expect(times.count <= 14 && times.count >= 10)
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(gaps.max() == second)
    }

    @Test func aSilenceBetweenFailuresOpensAtTheFirstAnswer() {
        var gate = ServerReopenGate()
        gate.opened(now: 0, probe: .answers)
        _ = opens(&gate, from: second, count: 30, probe: { _ in .answers })  // back-off grown to 1 s
        // Gone again, then back: the attempt right after it answers opens.
        let back = 10 * second
        let times = opens(&gate, from: 5 * second, count: 60, probe: { $0 < back ? .silent : .answers }, succeeds: { _ in true })
        #expect(times == [back])
    }
}

@Suite struct SoundServerSocketTests {
    @Test func pipewireLooksForItsRemoteInTheRuntimeDirectory() throws {
        let socket = try #require(SoundServerSocket(route: .pipewire, environment: ["XDG_RUNTIME_DIR": "/run/user/1000"]))
        #expect(socket.paths == ["/run/user/1000/pipewire-0", "/run/pipewire/pipewire-0"])
        let remote = try #require(SoundServerSocket(
            route: .pipewire, environment: ["PIPEWIRE_RUNTIME_DIR": "/x", "XDG_RUNTIME_DIR": "/y", "PIPEWIRE_REMOTE": "/z/sock"]))
        #expect(remote.paths == ["/x/pipewire-0", "/run/pipewire/pipewire-0", "/z/sock"])
    }

    @Test func pulseReadsPulseServerOrTheRuntimeDirectory() throws {
        #expect(SoundServerSocket(route: .pulse, environment: ["XDG_RUNTIME_DIR": "/r"])?.paths == ["/r/pulse/native", "/run/pulse/native"])
        #expect(SoundServerSocket(route: .pulse, environment: ["PULSE_SERVER": "unix:/a/native /b"])?.paths == ["/a/native", "/b"])
        // A server by host name, or no runtime directory: nothing to ask, open the plugin.
        #expect(SoundServerSocket(route: .pulse, environment: ["PULSE_SERVER": "tcp:localhost:4713"]) == nil)
        #expect(SoundServerSocket(route: .pulse, environment: [:]) == nil)
        #expect(SoundServerSocket(route: .other(type: "hw"), environment: ["XDG_RUNTIME_DIR": "/r"]) == nil)
    }

    @Test func aListeningSocketAnswersAndAClosedOneIsSilent() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ag-socket-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("native").path
        let probe = SoundServerSocket(paths: ["/nonexistent/native", path])
        #expect(probe.probe() == .silent)  // no such file
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8))
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        #expect(probe.probe() == .silent)  // bound, not listening: refused, as a killed server's left-over file
        #expect(listen(fd, 4) == 0)
        #expect(probe.probe() == .answers)
        close(fd)
        #expect(probe.probe() == .silent)
    }
}
