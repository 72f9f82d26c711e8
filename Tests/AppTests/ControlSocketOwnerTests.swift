import AudioTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 21, the control socket with two real users: another local user who prepares the
/// fallback directory, or serves an impostor socket, never gets a `set` and never answers one; the
/// victim's command fails naming the path. Needs root (useradd, setpriv), which CI has.
@Suite(.serialized, .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root and setpriv"))
struct ControlSocketOwnerTests {
    let scratch = TemporaryDirectory()

    struct SetupFailure: Error, CustomStringConvertible { var description: String }

    /// A throw-away local user, removed again at the end of the test.
    final class User {
        let name: String, uid: uid_t, gid: gid_t
        init(_ role: String) throws {
            name = "ag\(role)\(getpid() % 100_000)"
            _ = ControlSocketOwnerTests.run("/usr/sbin/userdel", [name])  // left by a killed run
            let made = ControlSocketOwnerTests.run("/usr/sbin/useradd", ["--no-create-home", "--no-user-group", "--shell", "/usr/sbin/nologin", name])
            guard made.status == 0, let entry = getpwnam(name) else { throw SetupFailure(description: "useradd \(name): \(made.output)") }
            uid = entry.pointee.pw_uid
            gid = entry.pointee.pw_gid
        }
        /// Removes the user (none of its processes may be left: stop them first).
        func remove() { _ = ControlSocketOwnerTests.run("/usr/sbin/userdel", [name]) }
        deinit { remove() }

        /// `arguments` run as this user (real and effective ids, no supplementary groups).
        func run(_ arguments: [String], environment: [String: String], directory: String = "/") -> CommandLineTests.Outcome {
            ControlSocketOwnerTests.run("/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--"] + arguments,
                                        environment: environment, directory: directory)
        }

        func start(_ arguments: [String]) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--"] + arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
    }

    /// An impostor: listens on `socket` (binding as root, then serving as `user` when given),
    /// answers "ok" to everything (unless the client already hung up) and appends what it was sent to `log`.
    static let impostor = """
        import os, socket, sys
        path, log, ready, uid = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
        s = socket.socket(socket.AF_UNIX); s.bind(path); os.chmod(path, 0o666)
        if uid >= 0: os.setgid(100); os.setuid(uid)
        s.listen(8); open(ready, "w").close()
        while True:
            c, _ = s.accept(); data = c.recv(4096)
            with open(log, "ab") as f: f.write(data)
            try: c.sendall(b"ok\\n")
            except OSError: pass  # the client refused us and hung up first: what the test wants
            c.close()
        """

    func startImpostor(at socket: String, servingAs user: User?, starter: User?) throws -> (Process, log: String) {
        let script = try scratch.write(Self.impostor, to: "impostor-\(UUID().uuidString).py")
        chmod(script, 0o644)
        let drop = scratch.file("drop")  // where the impostor, as whichever user, may write
        try scratch.makeDirectories(drop)
        chmod(drop, 0o1777)
        let log = drop + "/stolen-\(UUID().uuidString).txt", ready = log + ".ready"
        let arguments = ["/usr/bin/python3", script, socket, log, ready, "\(user.map { Int($0.uid) } ?? -1)"]
        let process: Process
        if let starter {
            process = try starter.start(arguments)
        } else {
            process = Process()
            process.executableURL = URL(fileURLWithPath: arguments[0])
            process.arguments = Array(arguments.dropFirst())
            try process.run()
        }
        for _ in 0..<1000 where !FileManager.default.fileExists(atPath: ready) { usleep(10_000) }
        #expect(FileManager.default.fileExists(atPath: ready), "the impostor listens")
        return (process, log)
    }

    /// No XDG_RUNTIME_DIR: the fallback `$TMPDIR/audiograph-<uid>` in a shared sticky directory (a
    /// /tmp of our own), created first by the attacker, world-writable, with a socket answering "ok".
    @Test func aDirectoryPreparedByAnotherUserIsRefused() throws {
        let victim = try User("v"), attacker = try User("a")
        let shared = scratch.file("tmp")
        try scratch.makeDirectories(shared)
        chmod(scratch.path, 0o755)
        chmod(shared, 0o1777)
        let trap = shared + "/audiograph-\(victim.uid)"
        #expect(attacker.run(["/usr/bin/python3", "-c", "import os; os.mkdir('\(trap)'); os.chmod('\(trap)', 0o777)"], environment: [:]).status == 0)
        let (impostor, stolen) = try startImpostor(at: trap + "/control.sock", servingAs: nil, starter: attacker)
        defer { Self.stop(impostor, then: [victim, attacker]) }
        let environment = ["TMPDIR": shared]
        let expected = "will not use the control socket directory \(trap): it belongs to uid \(attacker.uid), not to you (uid \(victim.uid))"
        for command in [["set", "master.gain=-3"], ["status"]] {
            let r = victim.run([CommandLineTests.binary] + command, environment: environment)
            #expect(r.status != 0, "\(command): \(r.output)")
            #expect(r.output.contains(expected), "\(r.output)")
        }
        // `play` does not serve there either (nor remove the attacker's socket): it says why and plays on.
        let play = victim.run([CommandLineTests.binary, "play", "--device", "paced", "--duration", "0.5", "--rt-priority", "0", "--no-wait-for-device"],
                              environment: environment, directory: CommandLineTests.repository)
        #expect(play.status == 0, "\(play.output)")
        #expect(play.output.contains("control socket unavailable (\(expected))"), "\(play.output)")
        #expect(FileManager.default.fileExists(atPath: trap + "/control.sock"))
        #expect((try? String(contentsOfFile: stolen, encoding: .utf8)) ?? "" == "", "nothing was sent to the impostor")
    }

    /// The directory passes every check (the victim's own, 0700) but the socket in it is served by
    /// another user (bound there by root, then served as the attacker): the client checks the
    /// server's uid (SO_PEERCRED) and refuses before sending.
    @Test func aServerOfAnotherUserIsRefusedByItsCredentials() throws {
        let victim = try User("v"), attacker = try User("a")
        let runtime = scratch.file("run-\(victim.uid)"), directory = runtime + "/audiograph"
        try scratch.makeDirectories(directory)
        chmod(scratch.path, 0o755)
        for path in [runtime, directory] {
            chown(path, victim.uid, victim.gid)
            chmod(path, 0o700)
        }
        let (impostor, stolen) = try startImpostor(at: directory + "/control.sock", servingAs: attacker, starter: nil)
        defer { Self.stop(impostor, then: [victim, attacker]) }
        let r = victim.run([CommandLineTests.binary, "set", "master.gain=-3"], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(r.status != 0, "\(r.output)")
        #expect(r.output.contains("will not talk to the control socket \(directory)/control.sock: it is served by uid \(attacker.uid), not by you"),
                "\(r.output)")
        #expect((try? String(contentsOfFile: stolen, encoding: .utf8)) ?? "" == "", "nothing was sent to the impostor")
    }

    /// Stops the impostor, then removes the users (userdel refuses a user with a process left).
    static func stop(_ impostor: Process, then users: [User]) {
        kill(impostor.processIdentifier, SIGKILL)  // SIGTERM may be blocked: the test runner's mask is inherited
        impostor.waitUntilExit()
        for user in users { user.remove() }
    }

    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:], directory: String = "/")
        -> CommandLineTests.Outcome
    {
        // A program that cannot start is a failed outcome here, so that cleanup calls may ignore it.
        do {
            return try Subprocess.run(executable, arguments, environment: environment, inheritingEnvironment: false, directory: directory)
        } catch {
            return CommandLineTests.Outcome(status: -1, output: "\(error)")
        }
    }
}

/// Issue 21: one instance per control socket. A second `play` is refused while the first answers
/// (and the first stays reachable); on exit an instance removes the socket file only if it is
/// still the one it bound.
@Suite struct ControlSocketInstanceTests {
    let cli = CommandLineTests()
    let scratch = TemporaryDirectory()

    @Test func aSecondPlayIsRefusedAndTheFirstKeepsItsSocket() throws {
        chmod(scratch.path, 0o700)
        let environment = ["XDG_RUNTIME_DIR": scratch.path]
        let socket = scratch.path + "/audiograph/control.sock"
        let first = Process()
        first.executableURL = URL(fileURLWithPath: CommandLineTests.binary)
        first.arguments = ["play", "--device", "paced", "--duration", "8", "--rt-priority", "0", "--no-wait-for-device"]
        first.currentDirectoryURL = URL(fileURLWithPath: CommandLineTests.repository)
        first.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        first.standardOutput = FileHandle.nullDevice
        first.standardError = FileHandle.nullDevice
        try first.run()
        var answering = false
        for _ in 0..<200 where first.isRunning {
            if try cli.run(["status"], environment: environment).status == 0 {
                answering = true
                break
            }
            usleep(50_000)
        }
        #expect(answering, "the first instance answers")
        let second = try cli.run(["play", "--device", "paced", "--duration", "1", "--rt-priority", "0", "--no-wait-for-device"], environment: environment)
        #expect(second.status != 0, "\(second.output)")
        #expect(second.output.contains("another AudioGraph is running and answers on \(socket)"), "\(second.output)")
        let status = try cli.run(["status"], environment: environment)
        #expect(status.status == 0 && status.output.contains("voices"), "the first still answers: \(status.output)")
        // Someone else's file now at the path: the first instance must not remove it when it exits.
        #expect(rename(socket, socket + ".moved") == 0)
        try scratch.write("not ours", to: "audiograph/control.sock")
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)
        #expect(FileManager.default.contents(atPath: socket) == Data("not ours".utf8))
    }
}

/// Issue 21: `set` refuses an assignment with a newline before sending anything (the server would
/// read the line up to it and apply the first half).
@Suite struct SetCommandLineTests {
    @Test func anAssignmentWithANewlineIsRefusedBeforeSending() throws {
        let scratch = TemporaryDirectory()
        chmod(scratch.path, 0o700)
        let r = try CommandLineTests().run(["set", "master.gain=-3\nmaster.gain=6"], environment: ["XDG_RUNTIME_DIR": scratch.path])
        #expect(r.status == 64, "\(r.output)")
        #expect(r.output.contains("'master.gain=-3\\u{A}master.gain=6' holds a control character"), "\(r.output)")
    }
}
