import AudioGraphApp
import AudioTestSupport
import LiveTestSupport
import Engine
import Foundation
import MIDI
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 10, the control socket as an adversarial local user drives it: bad names and values,
/// binary garbage, oversized and unterminated lines, clients that never send or vanish, more
/// connections than it serves, and 10,000 requests from four clients as fast as they go, all while a
/// live loop renders a held note. Every request gets one clear line (or is cut off at a bound); the
/// note keeps its level and the parameters keep their values. Bounds are counts, not times: a busy
/// machine makes these tests slower, never red (the request rate is printed, not asserted).
@Suite(.serialized) struct ControlSocketAbuseTests {
    /// A live loop rendering in real time (128-frame periods, paced like a device) with a synth note held.
    /// `@unchecked Sendable`: `thread` is set and read only on the test's thread; the rest is atomic or thread-safe.
    final class LiveRig: @unchecked Sendable {
        let engine: EngineController
        let probe: LiveLoopProbe
        let directory = TemporaryDirectory()
        var socketPath: String { directory.path + "/control.sock" }
        private let stop = Atomic<Bool>(false)
        private let periods = Atomic<Int>(0)
        private var thread: Thread?

        init() throws {
            var loader = try InstrumentLoader(instrumentPath: OfflineRenderTests.defaultInstrument)
            loader.playsDemo = true  // the demo's channel 2 on the synth
            loader.assignments = ["synth.sustain=1", "synth.attack=0.001"]
            probe = try LiveLoopProbe(engine: try loader.makeEngine(configuration: EngineConfiguration(sampleRate: 48000, maxFrames: 128)),
                                  periodFrames: 128, input: nil)
            engine = probe.controller
            try probe.startControlSocket(path: socketPath)
        }

        func start() {
            let thread = Thread { [self] in
                let period = UInt64(128.0 / 48000 * 1e9)
                var next = DispatchTime.now().uptimeNanoseconds
                while !stop.load(ordering: .relaxed) {
                    probe.runPeriods(1)
                    periods.add(1, ordering: .relaxed)
                    next += period
                    let now = DispatchTime.now().uptimeNanoseconds
                    if next > now { usleep(UInt32((next - now) / 1000)) } else { next = now }
                }
            }
            thread.start()
            self.thread = thread
        }

        /// A4 on the synth (channel 2), until the 300 ms RMS meter has settled: 7 time constants of
        /// rendered periods, however long a busy machine takes to render them.
        func holdANote() {
            probe.receive(.noteOn(channel: 1, note: 69, velocity: 100))
            waitForPeriods(Int(2.1 * 48000 / 128))
        }

        func waitForPeriods(_ count: Int) {
            let target = renderedPeriods + count
            while renderedPeriods < target { usleep(10_000) }
        }

        var renderedPeriods: Int { periods.load(ordering: .relaxed) }

        /// The output's 300 ms RMS, dBFS (left).
        var level: Double { engine.meters.outputRMSDecibels.left }

        func finish() {
            stop.store(true, ordering: .relaxed)
            while !(thread?.isFinished ?? true) { usleep(1000) }
            probe.stopControlSocket()
        }
    }

    final class Tally: Sendable {
        let ok = Atomic<Int>(0), error = Atomic<Int>(0), wrong = Atomic<Int>(0)
        let firstWrong = Mutex<String?>(nil)
        let finished = Atomic<Int>(0)
        var answered: Int { ok.load(ordering: .relaxed) + error.load(ordering: .relaxed) + wrong.load(ordering: .relaxed) }
    }

    /// One connection: sends `bytes` (then half-closes, unless told not to), returns the reply.
    static func exchange(_ path: String, _ bytes: [UInt8], halfClose: Bool = true) -> String {
        let fd = connectTo(path)
        guard fd >= 0 else { return "connect failed: \(errno)" }
        defer { close(fd) }
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }  // the server cut us off: its reply is waiting
            sent += n
        }
        if halfClose { shutdown(fd, Int32(SHUT_WR)) }
        return readReply(fd)
    }

    static func exchange(_ path: String, _ text: String) -> String { exchange(path, Array((text + "\n").utf8)) }

    static func connectTo(_ path: String) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if rc != 0 { close(fd); return -1 }
        return fd
    }

    static func readReply(_ fd: Int32) -> String {
        var reply = [UInt8](), chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { break }
            reply += chunk[0..<n]
        }
        return String(decoding: reply, as: UTF8.self)
    }

    /// An error reply: one line, "error: " and what was wrong, bounded in length.
    static func isOneLineError(_ reply: String, containing text: String) -> Bool {
        reply.hasPrefix("error: ") && reply.hasSuffix("\n") && !reply.dropLast().contains("\n") && reply.utf8.count < 400
            && (text.isEmpty || reply.contains(text))
    }

    @Test func badRequestsGetOneLineErrorsAndTheNoteKeepsItsLevel() throws {
        let rig = try LiveRig()
        rig.start()
        defer { rig.finish() }
        rig.holdANote()
        let level = rig.level
        #expect(level > -30, "the note sounds (\(level) dBFS)")
        let gain = Self.exchange(rig.socketPath, "get master.gain")
        #expect(gain == "ok master.gain = -1 dB\n", "the bundled instrument's master gain")

        var generator = SeededGenerator(seed: 0x50C_4E7)
        let garbage = (0..<2000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let lines: [(String, String)] = [
            ("set nosuch.param=1", "unknown parameter 'nosuch.param'"),
            ("set master.gain=nan", "master.gain needs a number in dB (got 'nan')"),
            ("set master.gain=inf", "master.gain needs a number in dB (got 'inf')"),
            ("set master.gain=-1e400", "master.gain needs a number in dB"),
            ("set master.gain=1e308", "master.gain must be between -60 dB and 12 dB (got 1e308 dB)"),
            ("set master.gain=13", "must be between -60 dB and 12 dB (got 13 dB)"),
            ("set master.gain=loud", "needs a number in dB (got 'loud')"),
            ("set master.gain=-20 master.gain=loud", "needs a number in dB (got 'loud')"),  // all or none: -20 not applied
            ("set master.gain=", "needs a number in dB (got '')"),
            ("set master.gain", "expected name=value, got 'master.gain'"),
            ("set", "set needs name=value"),
            ("set =5", "unknown parameter ''"),
            ("set synth.voices=1e19", "synth.voices must be between"),
            ("set master.lowpass.enabled=maybe", "master.lowpass.enabled is on or off (got 'maybe')"),
            ("set mic.effect=nope", "mic.effect is one of"),
            ("get", "unknown parameter ''"),
            ("get nosuch", "unknown parameter 'nosuch'"),
            ("", "unknown request ''"),
            ("frobnicate now", "unknown request 'frobnicate now'"),
            ("note 1 60", "note needs CHANNEL (1–16) KEY (0–127) VELOCITY"),
            ("note 17 60 100", "note needs CHANNEL (1–16) KEY (0–127) VELOCITY"),
            ("note 1 128 100", "note needs CHANNEL"),
            ("note 1 60 loud", "note needs CHANNEL"),
            ("set master.gain=" + String(repeating: "9", count: 3000), "needs a number in dB (got '999"),
        ]
        let raw: [([UInt8], String)] = [
            (garbage, "control byte"),
            (Array("status\u{0}\n".utf8), "control byte 0x0 at offset 6"),
            ([0x73, 0x65, 0x74, 0x20, 0xFF, 0xFE, 0x0A], "not UTF-8 text"),
            ([UInt8](repeating: 0x61, count: 1 << 20), "request longer than 4096 bytes without a newline"),
            ([UInt8](repeating: 0x61, count: 1 << 20) + [10], "request longer than 4096 bytes without a newline"),
        ]
        let cases = lines.map { (Array(($0.0 + "\n").utf8), $0.1) } + raw
        for (request, expected) in cases {
            let reply = Self.exchange(rig.socketPath, request)
            #expect(Self.isOneLineError(reply, containing: expected), "\(request.prefix(40)) → \(reply.prefix(300))")
        }
        // A half line then the end of sending counts as the line; one that closes at once gets its
        // answer dropped, without SIGPIPE (which would end this test process).
        #expect(Self.exchange(rig.socketPath, Array("status".utf8)).hasPrefix("ok out "))
        for _ in 0..<20 {
            let fd = Self.connectTo(rig.socketPath)
            _ = "status --json\n".withCString { send(fd, $0, 14, Int32(MSG_NOSIGNAL)) }
            close(fd)
        }
        #expect(Self.exchange(rig.socketPath, "get master.gain") == gain, "no bad request changed anything")
        #expect(abs(rig.level - level) < 0.1, "the note keeps its level: \(level) → \(rig.level) dBFS")
        #expect(rig.engine.meters.nonFiniteBlocks == 0)
    }

    /// Clients that connect and never send (or trickle) are cut off after 1 s, and meanwhile do not
    /// hold up anyone else; past 32 open connections the next is told "busy".
    @Test func idleClientsAreCutOffWithoutHoldingUpOthers() throws {
        let rig = try LiveRig()
        rig.start()
        defer { rig.finish() }
        let idle = (0..<(ControlServer.maxClients - 1)).map { _ in Self.connectTo(rig.socketPath) }
        _ = "sta".withCString { send(idle[0], $0, 3, Int32(MSG_NOSIGNAL)) }  // half a line, then nothing
        usleep(100_000)
        #expect(Self.exchange(rig.socketPath, "get master.gain") == "ok master.gain = -1 dB\n")
        // Served before any of them was cut off: nothing to read on an idle connection yet.
        let cutOff = idle.filter { Self.isReadable($0) }.count
        #expect(cutOff == 0, "served while 31 clients sat idle (\(cutOff) of them already cut off)")
        usleep(50_000)  // the server sees that exchange's client close
        let held = Self.connectTo(rig.socketPath)  // the 32nd open connection
        usleep(100_000)
        let busy = Self.exchange(rig.socketPath, "status")
        #expect(Self.isOneLineError(busy, containing: "busy (32 requests open); try again"), "\(busy)")
        for fd in idle + [held] {
            let reply = Self.readReply(fd)
            #expect(Self.isOneLineError(reply, containing: "no complete request line within 1 s"), "\(reply)")
            close(fd)
        }
        #expect(Self.exchange(rig.socketPath, "status").hasPrefix("ok out "))
    }

    /// 4 clients, 2,500 requests each as fast as the server answers, mixing status, get, set (to the
    /// value it has) and bad requests: every reply is the right one line, nothing changes, the note
    /// keeps its level. The level is read after every 500 answers; the rate is printed (about
    /// 1,000/s on a quiet 2-core machine), not asserted.
    @Test func tenThousandRequestsFromFourClients() throws {
        let rig = try LiveRig()
        rig.start()
        defer { rig.finish() }
        rig.holdANote()
        let level = rig.level, periodsBefore = rig.renderedPeriods
        let clients = 4, perClient = 2_500, total = clients * perClient, levelEvery = 500
        let requests: [(String, String)] = [
            ("status", "ok out "), ("get master.gain", "ok master.gain = -1 dB"), ("set master.gain=-1", "ok"),
            ("set master.gain=nan", "error: master.gain needs a number"), ("set no.such=1", "error: unknown parameter 'no.such'"),
            ("status --json", "ok\n{"),
        ]
        let tally = Tally()
        let start = Date()
        for client in 0..<clients {
            Thread { Self.client(client, rig: rig, requests: requests, count: perClient, tally: tally) }.start()
        }
        var levels: [Double] = []
        while tally.finished.load(ordering: .relaxed) < clients {
            if tally.answered >= (levels.count + 1) * levelEvery { levels.append(rig.level) } else { usleep(1_000) }
        }
        let elapsed = Date().timeIntervalSince(start)
        let (ok, errors, wrong) = (tally.ok.load(ordering: .relaxed), tally.error.load(ordering: .relaxed), tally.wrong.load(ordering: .relaxed))
        print("control socket flood: \(tally.answered) requests from \(clients) clients in \(String(format: "%.2f", elapsed)) s = "
              + "\(Int(Double(tally.answered) / elapsed)) requests/s, \(ok) ok, \(errors) errors, \(wrong) wrong; level "
              + "\(String(format: "%.2f", level)) dBFS, during \(String(format: "%.2f", levels.min() ?? 0))…"
              + "\(String(format: "%.2f", levels.max() ?? 0)); \(rig.renderedPeriods - periodsBefore) periods rendered")
        #expect(tally.answered == total)
        #expect(wrong == 0, "\(tally.firstWrong.withLock { $0 } ?? "")")
        let bad = (0..<clients).map { c in (0..<perClient).filter { requests[($0 + c) % requests.count].1.hasPrefix("error") }.count }
        #expect(errors == bad.reduce(0, +), "a third of the requests are bad ones")
        #expect(levels.count >= total / levelEvery - 1 && levels.allSatisfy { abs($0 - level) < 0.1 },
                "the note keeps its level (\(level) dBFS): \(levels.count) readings, \(levels.min() ?? 0)…\(levels.max() ?? 0)")
        #expect(Self.exchange(rig.socketPath, "get master.gain") == "ok master.gain = -1 dB\n")
        #expect(rig.engine.meters.nonFiniteBlocks == 0)
    }

    /// One client of the flood: `count` requests back to back, taking `requests` in turn, each reply checked.
    static func client(_ client: Int, rig: LiveRig, requests: [(String, String)], count: Int, tally: Tally) {
        for sent in 0..<count {
            let (request, expected) = requests[(sent + client) % requests.count]
            let reply = Self.exchange(rig.socketPath, request)
            if reply.hasPrefix("ok"), reply.hasPrefix(expected) {
                tally.ok.add(1, ordering: .relaxed)
            } else if isOneLineError(reply, containing: ""), reply.hasPrefix(expected) {
                tally.error.add(1, ordering: .relaxed)
            } else {
                tally.wrong.add(1, ordering: .relaxed)
                tally.firstWrong.withLock { $0 = $0 ?? "\(request) → \(reply.prefix(200))" }
            }
        }
        tally.finished.add(1, ordering: .relaxed)
    }

    /// Whether `fd` has something to read (or its peer closed) right now.
    static func isReadable(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }
}
