import AudioTestSupport
import Foundation
import MIDI
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 21, outputs: `render --out` never destroys an input or a good file, never blocks on a
/// special file, and a render that fails or is interrupted leaves nothing behind.
@Suite struct OutputSafetyTests {
    let cli = CommandLineTests()
    let scratch = TemporaryDirectory()
    static let repository = CommandLineTests.repository

    func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }
    func leftovers(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".partial") }
    }

    /// A song whose one note (A4 on the synth) is held `seconds` long.
    /// One A4 held `seconds` on channel 2, on program 0 (the piano, which decays) or `program`.
    func song(seconds: Int, name: String = "song.mid", program: UInt8? = nil) throws -> String {
        let path = scratch.file(name)
        let events = (program.map { [MIDIFileWriter.TimedEvent(tick: 0, message: .programChange(channel: 1, program: $0))] } ?? [])
            + [MIDIFileWriter.TimedEvent(tick: 0, message: .noteOn(channel: 1, note: 69, velocity: 100)),
               MIDIFileWriter.TimedEvent(tick: seconds * 960, message: .noteOff(channel: 1, note: 69, velocity: 0))]
        try MIDIFileWriter.write(path: path, tracks: [MIDIFileWriter.Track(name: "held", events: events)])
        return path
    }

    /// Every kind of input, named as the output directly, through a symlink and through a hard
    /// link: refused with the input named, and the input's bytes unchanged.
    @Test func anOutputNamingAnyInputIsRefused() throws {
        // A copy of the bundled instrument, so that a regression overwrites nothing of the checkout.
        for tree in ["Instruments", "Presets", "Sounds"] {
            try FileManager.default.copyItem(atPath: Self.repository + "/" + tree, toPath: scratch.file(tree))
        }
        let instrument = scratch.file("Instruments/default.json")
        let preset = scratch.file("Presets/Keys.aupreset")
        let sample = scratch.file("Sounds/Piano/piano-60.wav")  // opened by program 0's preset (Piano), which every song loads
        let midi = try song(seconds: 1, name: "song.wav")  // a MIDI file may have any name
        let input = scratch.file("voice.wav")
        #expect(cli.runOK(["render", "--instrument", instrument, "--midi", midi, "--out", input, "--max-seconds", "1"]))
        let cases: [(input: String, arguments: [String], kind: String)] = [
            (midi, ["--midi", midi], "MIDI file"), (input, ["--input", input], "audio file"),
            (preset, ["--preset", preset], "preset"), (instrument, ["--instrument", instrument], "instrument file"),
            (sample, [], "audio file"),
        ]
        for (index, (path, arguments, kind)) in cases.enumerated() {
            let before = try #require(bytes(path))
            let symbolic = scratch.file("link-\(index).wav"), hardLink = scratch.file("hard-\(index).wav")
            #expect(symlink(path, symbolic) == 0)
            let linked = link(path, hardLink) == 0  // a hard link needs the same file system
            for out in [path, symbolic] + (linked ? [hardLink] : []) where out.hasSuffix(".wav") {
                let r = try cli.run(["render", "--instrument", instrument] + arguments + ["--out", out, "--max-seconds", "1"])
                #expect(r.status != 0, "\(arguments) --out \(out): \(r.output)")
                #expect(r.output.contains("is the \(kind)") && r.output.contains("refusing to write over an input"), "\(r.output)")
            }
            #expect(bytes(path) == before, "\(path) unchanged")
        }
        #expect(leftovers(scratch.path).isEmpty)
    }

    /// A FIFO with no reader, a directory and a device are refused by name at once (open() on a
    /// FIFO would wait for a reader forever); so is an extension no writer has.
    @Test func specialFilesAndUnknownFormatsAreRefusedByName() throws {
        let fifo = scratch.file("pipe.wav")
        #expect(mkfifo(fifo, 0o600) == 0)
        let directory = scratch.file("folder.wav")
        try scratch.makeDirectories(directory)
        for (out, message) in [(fifo, "is a FIFO (named pipe), not a regular file"), (directory, "is a directory, not a regular file"),
                               ("/dev/null", "is a character device, not a regular file"),
                               (scratch.file("a.mp3"), "cannot write .mp3 files; give a name ending in .wav"),
                               (scratch.path + "/nowhere/a.wav", "cannot write in"), (scratch.file("a"), "no extension")] {
            let r = try cli.run(["render", "--out", out])
            #expect(r.status == 64, "\(out): \(r.output)")
            #expect(r.output.contains(message), "\(r.output)")
        }
    }

    /// A new file gets the mode any new file gets (0666 less the umask); a replaced file keeps its own.
    @Test func aReplacedFileKeepsItsModeAndANewFileGetsTheUsualOne() throws {
        let song = try song(seconds: 1)
        let kept = scratch.file("kept.wav")
        try scratch.write("old", to: "kept.wav")
        #expect(chmod(kept, 0o640) == 0)
        let fresh = scratch.file("fresh.wav")
        #expect(cli.runOK(["render", "--midi", song, "--out", kept]))
        #expect(cli.runOK(["render", "--midi", song, "--out", fresh]))
        let mask = umask(0)
        umask(mask)
        #expect(try mode(kept) == 0o640)
        #expect(try mode(fresh) == 0o666 & ~UInt32(mask))
        #expect(leftovers(scratch.path).isEmpty)
    }

    func mode(_ path: String) throws -> UInt32 {
        var status = stat()
        #expect(stat(path, &status) == 0)
        return UInt32(status.st_mode) & 0o777
    }

    /// Disk full, on a 3 MB tmpfs that a 120 s render overfills: a one-line error, rc ≠ 0, the good
    /// file at the path byte for byte as it was, and no temporary file left. Needs root (mount).
    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func aFullDiskLeavesTheGoodFileAsItWas() throws {
        let song = try song(seconds: 120, program: 16)  // the drawbar organ holds: no silence for FLAC to squeeze
        let mountPoint = scratch.file("small")
        try scratch.makeDirectories(mountPoint)
        #expect(Self.shell("mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", mountPoint) == 0)
        defer { _ = Self.shell("umount", mountPoint) }
        let good = mountPoint + "/song.wav"
        let original = Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        #expect(FileManager.default.createFile(atPath: good, contents: original))
        for out in [good, mountPoint + "/song.flac"] {
            let r = try cli.run(["render", "--midi", song, "--out", out])
            #expect(r.status == 1, "\(r.output)")
            #expect(r.output.contains("No space left on device"), "\(r.output)")
        }
        #expect(bytes(good) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: mountPoint) == ["song.wav"])
    }

    /// A real signal to a real render, once its temporary file is being written: the process dies
    /// of that signal (the shell sees 128 + n), the temporary file is gone, the good file intact.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aSignalMidRenderRemovesTheTemporaryFileAndDiesOfIt(signal: Int32) throws {
        let song = try song(seconds: 600)
        let good = scratch.file("good-\(signal).wav")
        try scratch.write("a good file", to: "good-\(signal).wav")
        let pid = try Self.spawn([CommandLineTests.binary, "render", "--midi", song, "--out", good])
        // Wait (by what is on disk, not by a clock) until the render is writing its samples.
        var writing = false
        for _ in 0..<6000 {
            let partial = leftovers(scratch.path).map { scratch.path + "/" + $0 }
            if let size = partial.first.flatMap({ try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int }), size > 1_000_000 {
                writing = true
                break
            }
            usleep(10_000)
        }
        #expect(writing, "the render was writing its temporary file")
        kill(pid, signal)
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        let diedOf = status & 0x7F  // WTERMSIG; 0 if it exited
        #expect(diedOf == signal, "died of signal \(signal), got wait status \(status)")
        #expect(leftovers(scratch.path).isEmpty, "\(leftovers(scratch.path))")
        #expect(bytes(good) == Data("a good file".utf8))
    }

    /// Starts `arguments` as a shell would: every signal unblocked and at its default action (a
    /// test runner's threads block most signals, and `Process` passes its mask on).
    static func spawn(_ arguments: [String]) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [1, 2] { posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0) }
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let rc = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EINVAL) }
        return pid
    }

    static func shell(_ arguments: String...) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

extension CommandLineTests {
    /// Runs and expects success, recording the output otherwise.
    func runOK(_ arguments: [String]) -> Bool {
        guard let r = try? run(arguments) else { return false }
        if r.status != 0 { Issue.record("\(arguments): \(r.output)") }
        return r.status == 0
    }
}
