import AudioTestSupport
import Engine
import Foundation
import MicEffects
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

    typealias Outcome = Subprocess.Outcome

    func run(
        _ arguments: [String], environment: [String: String] = [:], directory: String = repository, executable: String = binary
    ) throws -> Outcome {
        try Subprocess.run(executable, arguments, environment: environment, directory: directory)
    }

    let scratch = TemporaryDirectory()

    @Test func renderPrintsItsSummaryAndWritesTheFile() throws {
        let out = scratch.file("render.wav")
        let r = try run(["render", "--out", out, "--set", "loop.guitar.play=on"])
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.contains("rendered 2") && r.output.contains("dBFS") && r.output.contains("× real time"), "\(r.output)")
        #expect((try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int ?? 0) > 1_000_000)
    }

    /// A bad `--soundfont` is named as the option it came from, not as a key of an instrument file
    /// that does not exist.
    @Test func aBadSoundFontOptionIsNamedAsTheOption() throws {
        let r = try run(["render", "--soundfont", "Package.swift", "--midi", "Sounds/demo.mid", "--out", scratch.file("sf.wav")])
        #expect(r.status != 0)
        #expect(r.output.contains("Error: --soundfont: ") && r.output.contains("Package.swift") && !r.output.contains("(SoundFont module)"), "\(r.output)")
    }

    @Test(arguments: [
        (["render", "--set", "master.lowpass.cutoff=99999"], "master.lowpass.cutoff must be between 20 Hz and 20000 Hz"),
        (["render", "--midi", "Sounds/README.md"], "byte offset"),
        (["render", "--block", "0"], "--block must be between 1 and 4096"),
        (["render", "--soundfont-gain", "11"], "--soundfont-gain must be between 0 and 10"),
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

    /// One line per parameter of the engine's table, each with its range and default; the ranges
    /// of one parameter of each kind spelled out (numbers with units, toggles, choices).
    @Test func paramsListsEveryParameterWithItsRangeAndDefault() throws {
        let r = try run(["params"])
        #expect(r.status == 0)
        let lines = r.output.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        let names = try AudioEngine(configuration: EngineConfiguration(maxFrames: 64)).parameters.descriptors.map(\.name)
        #expect(lines.count == names.count)
        for name in names {
            let line = lines.first { $0.hasPrefix(name + " ") } ?? ""
            #expect((line.contains(" … ") || line.contains("|")) && line.contains(" default "), "\(name): '\(line)'")
        }
        for expected in ["master.gain -60 dB … 12 dB default 0 dB", "synth.release 0.005 s … 10 s default 0.3 s",
                         "mic.lowpass.cutoff 20 Hz … 4000 Hz default 1000 Hz", "sampler.voices 0 … 128 default 0",
                         "master.lowpass.enabled on|off default off",
                         "mic.effect " + MicEffectKind.allCases.map(\.name).joined(separator: "|") + " default off"] {
            #expect(lines.contains { $0.hasPrefix(expected + " — ") }, "\(expected)")
        }
    }
}
