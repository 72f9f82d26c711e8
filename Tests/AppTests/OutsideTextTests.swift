import AudioTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 21: what comes from outside is printed with control characters escaped (an escape
/// sequence in an instrument-file key must not retitle the terminal), a NUL inside a path is
/// refused rather than cutting the path, and a preset that cannot be opened is named with the real
/// cause, blamed on the instrument file only when it came from there.
@Suite struct OutsideTextTests {
    let cli = CommandLineTests()
    let scratch = TemporaryDirectory()

    func render(instrument json: String) throws -> CommandLineTests.Outcome {
        let path = try scratch.write(json, to: "i-\(UUID().uuidString).json")
        return try cli.run(["render", "--instrument", path, "--out", scratch.file("a.wav")])
    }

    @Test(arguments: [
        (#"{"name":"x","parameters":{"\u001b]0;pwned\u0007":1}}"#, #"unknown parameter '\u{1B}]0;pwned\u{7}'"#),
        (#"{"name":"x","channels":{"\u001b[31mred":1}}"#, #"channels.\u{1B}[31mred: unknown key '\u{1B}[31mred'"#),
        (#"{"name":"x","parameters":{"master.gain":"\u009b2J"}}"#, #"(got '\u{9B}2J')"#),
        (#"{"name":"x","preset":"\u001b[2Jgone.aupreset"}"#, #"preset: preset "#),
    ])
    func escapeSequencesFromAnInstrumentFileAreShownEscaped(json: String, shown: String) throws {
        let r = try render(instrument: json)
        #expect(r.status != 0)
        #expect(r.output.contains(shown), "\(r.output)")
        #expect(!r.output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B }, "a raw control character reached the output")
    }

    @Test func aNULInsideAPathIsRefusedNotCut() throws {
        // Without the NUL check this would open ../Presets/Keys.aupreset and render.
        let instrument = CommandLineTests.repository + "/Instruments/nul-\(UUID().uuidString).json"
        try Data(#"{"name":"x","preset":"../Presets/Keys.aupreset\u0000junk","demo":"../Sounds/demo.mid"}"#.utf8)
            .write(to: URL(fileURLWithPath: instrument))
        defer { unlink(instrument) }
        let r = try cli.run(["render", "--instrument", instrument, "--out", scratch.file("a.wav")])
        #expect(r.status != 0, "\(r.output)")
        #expect(r.output.contains(#"Keys.aupreset\u{0}junk contains a NUL byte"#), "\(r.output)")
        let song = try cli.run(["render", "--instrument", try scratch.write(#"{"name":"x","demo":"/etc/hostname\u0000.mid"}"#, to: "song.json"),
                                "--out", scratch.file("b.wav")])
        #expect(song.status != 0 && song.output.contains("the path contains a NUL byte"), "\(song.output)")
    }

    @Test func aPresetOnASymlinkLoopSaysSoAndBlamesNoInstrumentFile() throws {
        let a = scratch.file("a.aupreset"), b = scratch.file("b.aupreset")
        #expect(symlink(b, a) == 0 && symlink(a, b) == 0)
        let r = try cli.run(["render", "--preset", a, "--out", scratch.file("x.wav")])
        #expect(r.status != 0)
        #expect(r.output.contains("Error: --preset: preset \(a): Too many levels of symbolic links"), "\(r.output)")
        #expect(!r.output.contains("default.json"), "the instrument file is not blamed: \(r.output)")
        let missing = try cli.run(["render", "--preset", scratch.file("none.aupreset"), "--out", scratch.file("x.wav")])
        #expect(missing.output.contains("Error: --preset: preset \(scratch.file("none.aupreset")): not found"), "\(missing.output)")
        // From the instrument file, the file and key are named.
        let inFile = try render(instrument: #"{"name":"x","programs":{"0":"\#(a)"}}"#)
        #expect(inFile.output.contains(#"programs."0": preset \#(a): Too many levels of symbolic links"#), "\(inFile.output)")
    }
}
