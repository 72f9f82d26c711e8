import Foundation
import SoundFont
import Testing

/// The General MIDI fonts Debian ships (installed by scripts/install-deps): the counts and kits
/// their phdr lists (Tests' notes), no warning where FluidSynth 2.3 gives none, every preset
/// playing. Skipped, saying so, when a font is not installed.
@Suite("Debian SoundFonts")
struct DebianFontTests {
    static let fluidR3 = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
    static let timGM6mb = "/usr/share/sounds/sf2/TimGM6mb.sf2"
    static let fluidR3Mono = "/usr/share/sounds/sf3/FluidR3Mono_GM.sf3"

    static func installed(_ path: String) -> Bool { FileManager.default.isReadableFile(atPath: path) }

    struct Expected: Sendable, CustomTestStringConvertible {
        var path: String
        var presets: Int
        var kits: [Int]
        var version: String
        var testDescription: String { (path as NSString).lastPathComponent }
    }

    static let fonts = [
        Expected(path: fluidR3, presets: 189, kits: Array(0...19) + [24, 25] + Array(32...36) + [40, 41, 42, 48], version: "2.01"),
        Expected(path: timGM6mb, presets: 136, kits: [0, 8, 16, 24, 25, 32, 40, 48], version: "2.01"),
        Expected(
            path: fluidR3Mono, presets: 197, kits: Array(0...19) + [24, 25] + Array(32...36) + [40, 41, 42, 48, 56, 57, 58, 59, 95, 96],
            version: "3.01"),
    ]

    @Test(arguments: fonts) func presetsKitsAndNoWarnings(_ expected: Expected) throws {
        guard Self.installed(expected.path) else {
            print("skipped: \(expected.path) is not installed (scripts/install-deps installs it)")
            return
        }
        let font = try SoundFontFile.load(path: expected.path)
        #expect(font.presets.count == expected.presets)
        #expect(font.presets.filter { $0.bank == 128 }.map(\.program).sorted() == expected.kits)
        #expect(font.info.versionText == expected.version)
        #expect(font.warnings == [])
        #expect(font.unsupported == [])
        #expect(font.samples.allSatisfy { $0.isPlayable })
        for index in font.presets.indices {
            #expect(!font.regions(ofPreset: index).isEmpty, "\(font.presets[index].name) has no region")
        }
    }

    /// FluidSynth's own load warnings for the same file (stderr of a one-note render), to show we
    /// give no more than it does.
    static func fluidSynthWarnings(_ font: String) throws -> [String] {
        // One directory per call: the parameterised tests run this concurrently in one process.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sf-warn-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let track: [UInt8] = [0x00, 0x90, 0x3C, 0x64, 0x60, 0x80, 0x3C, 0x00, 0x00, 0xFF, 0x2F, 0x00]
        let midi: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96] + Array("MTrk".utf8) + [0, 0, 0, UInt8(track.count)] + track
        let song = dir.appendingPathComponent("one.mid")
        try Data(midi).write(to: song)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/fluidsynth")
        process.arguments = ["-ni", "-F", dir.appendingPathComponent("out.wav").path, "-r", "44100", font, song.path]
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: "\n").map(String.init).filter {
            ($0.contains("warning:") || $0.contains("error:")) && !$0.contains("on channel")
        }
    }

    @Test(arguments: fonts) func noMoreWarningsThanFluidSynth(_ expected: Expected) throws {
        guard Self.installed(expected.path), Self.installed("/usr/bin/fluidsynth") else {
            print("skipped: needs \(expected.path) and fluidsynth (scripts/install-deps)")
            return
        }
        let ours = try SoundFontFile.load(path: expected.path).warnings
        let theirs = try Self.fluidSynthWarnings(expected.path)
        #expect(ours.count <= theirs.count, "ours: \(ours), FluidSynth's: \(theirs)")
    }

    @Test func aSanitizedLoopWarnsOnceLikeFluidSynth() throws {
        guard Self.installed("/usr/bin/fluidsynth") else {
            print("skipped: fluidsynth is not installed (scripts/install-deps)")
            return
        }
        var w = Fixtures.minimal()
        w.samples[0].loopStart = 80
        w.samples[0].loopEnd = 20
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reversed-\(getpid()).sf2").path
        try Data(w.bytes()).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let theirs = try Self.fluidSynthWarnings(path)
        let ours = try SoundFontFile.load(path: path).warnings
        #expect(theirs.count == 1 && theirs[0].contains("Some invalid sample loops were sanitized"))
        #expect(ours.count == 1 && ours[0].contains("invalid loops sanitized"))
    }
}
