import AudioTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The `audiograph` executable as a user meets it: exit status and what it prints.
@Suite struct CommandLineTests {
    /// The test bundle sits beside the built products (`.build/<config>/`).
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("audiograph").path
    static let repository = OfflineRenderTests.repository

    struct Outcome { var status: Int32; var output: String }

    func run(
        _ arguments: [String], environment: [String: String] = [:], directory: String = repository, executable: String = binary
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    let scratch = TemporaryDirectory()

    @Test func renderPrintsItsSummaryAndWritesTheFile() throws {
        let out = scratch.file("render.wav")
        let r = try run(["render", "--out", out, "--set", "loop.guitar.play=on"])
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.contains("rendered 2") && r.output.contains("dBFS") && r.output.contains("× real time"), "\(r.output)")
        #expect((try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int ?? 0) > 1_000_000)
    }

    @Test(arguments: [
        (["render", "--set", "master.lowpass.cutoff=99999"], "master.lowpass.cutoff must be between 20 Hz and 20000 Hz"),
        (["render", "--midi", "Sounds/README.md"], "byte offset"),
        (["render", "--block", "0"], "--block must be between 1 and 4096"),
        (["note", "H9"], "'H9' is not a note"),
        (["preset", "check", "Package.swift"], "playable: NO"),
        (["set", "master.gain=-3"], "AudioGraph is not running"),
        (["status"], "AudioGraph is not running"),
    ])
    func mistakesExitNonZeroWithAClearMessage(arguments: [String], message: String) throws {
        // A private control-socket directory (0700, as a runtime directory must be), so no running
        // instance on this machine can answer.
        chmod(scratch.path, 0o700)
        let r = try run(arguments, environment: ["XDG_RUNTIME_DIR": scratch.path])
        #expect(r.status != 0)
        #expect(r.output.contains(message), "\(r.output)")
    }

    @Test func presetCheckReportsEveryBundledPresetPlayable() throws {
        let r = try run(["preset", "check", "Presets/Keys.aupreset", "Presets/Lead.aupreset", "Presets/Sine.aupreset"])
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.components(separatedBy: "playable: yes").count == 4)
        #expect(r.output.contains("keys-60-hard.wav") && r.output.contains("loop 33600–91392"))
    }

    @Test func paramsListsEveryParameterWithItsRange() throws {
        let r = try run(["params"])
        #expect(r.status == 0)
        for name in ["bus.sampler.gain", "master.highpass.resonance", "mic.lowpass.cutoff", "synth.release", "sampler.voices"] {
            #expect(r.output.contains(name))
        }
    }
}
