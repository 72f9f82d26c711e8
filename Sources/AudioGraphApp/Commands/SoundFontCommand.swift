import ArgumentParser
import FileAccess
import SoundFont

#if canImport(Glibc)
    import Glibc
#endif

/// `audiograph soundfont list FILE…`: a SoundFont's presets, kits, what it cannot honour, warnings.
struct SoundFontCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soundfont", abstract: "Inspect SoundFont (SF2/SF3) files.", subcommands: [SoundFontListCommand.self])
}

struct SoundFontListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List a SoundFont's presets (bank:program name, zones, samples), drum kits and warnings.")

    @Argument(help: "SoundFont files (.sf2, .sf3).") var files: [String]
    @Flag(help: "Read every sample the presets use (decodes SF3 streams) before saying what plays.") var verify = false
    @Flag(help: "Only the summary, warnings and verdict, not one line per preset.") var summary = false

    func run() throws {
        var failures = 0
        for file in files where !SoundFontInspection.check(file, verifySamples: verify, listPresets: !summary) { failures += 1 }
        if failures > 0 { throw ExitCode(1) }
    }
}

/// Shared by `soundfont list` and `preset check` (which routes a RIFF `sfbk` file here).
enum SoundFontInspection {
    /// Whether the file starts like a SoundFont, whatever its name; false when it cannot be read
    /// (the preset path then reports why).
    static func isSoundFont(_ file: String) -> Bool {
        guard let opened = try? RegularFile.open(file, maxBytes: SoundFontFile.maxFileBytes, what: "file") else { return false }
        defer { close(opened.descriptor) }
        var head = [UInt8](repeating: 0, count: 12)
        let count = head.withUnsafeMutableBytes { read(opened.descriptor, $0.baseAddress, 12) }
        return count == 12 && SoundFontFile.hasMagic(head)
    }

    /// Prints the report of `file`; false when it cannot be loaded or nothing in it plays.
    static func check(_ file: String, verifySamples: Bool, listPresets: Bool = true) -> Bool {
        printOutside("== \(file)")
        do {
            let report = SoundFontReport(try SoundFontFile.load(path: file), verifySamples: verifySamples, listPresets: listPresets)
            for line in report.lines { printOutside(line) }
            printOutside(report.verdict)
            return report.playablePresets > 0
        } catch {
            printOutside("playable: NO — \(error)")
            return false
        }
    }
}
