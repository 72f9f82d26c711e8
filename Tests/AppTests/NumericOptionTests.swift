import AudioTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 21: every numeric option of every command has a range, stated in its help as
/// "(LOW…HIGH)", and a value outside it — NaN, infinity, −1, 0, huge, past Int's range — ends in
/// one error line naming the option, exit status 64, never a crash, a run of zero or forever.
/// The options are found by walking `--experimental-dump-help`, so a new one is covered (and must
/// state its range, or be listed here as text).
@Suite struct NumericOptionTests {
    let cli = CommandLineTests()

    /// Options and arguments that take text (names, paths, choices), not numbers.
    static let textual: Set<String> = [
        "device", "input", "input-file", "connect", "autoconnect-include", "autoconnect-exclude", "instrument", "preset", "sample-path",
        "set", "midi", "out", "quality", "to", "effect", "fx-unit", "section", "assignments", "files", "file", "subcommands", "driver", "panel", "soundfont",
    ]
    /// Where a positional value under test goes ("{}"), with valid values around it.
    static let templates: [String: [[String]]] = [
        "note": [["{}"]], "cc": [["{}", "0"], ["7", "{}"]], "bend": [["{}"]], "program": [["{}"]],
    ]
    static let values = ["nan", "inf", "-inf", "-1", "0", "0.5", "1e300", "99999999999999999999", "-99999999999999999999"]

    struct Numeric: CustomStringConvertible {
        var command: [String]
        var name: String?  // nil: a positional value
        var range: ClosedRange<Double>
        var description: String { (command + [name ?? "<value>"]).joined(separator: " ") }
    }

    static func numericOptions() throws -> [Numeric] {
        let r = try CommandLineTests().run(["--experimental-dump-help"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.output.utf8)) as? [String: Any])
        var found: [Numeric] = []
        func walk(_ command: [String: Any], path: [String]) {
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                let kind = argument["kind"] as? String
                guard kind == "option" || kind == "positional" else { continue }
                let longName = (argument["names"] as? [[String: Any]])?.compactMap { $0["name"] as? String }.max { $0.count < $1.count }
                let key = longName ?? argument["valueName"] as? String ?? ""
                guard !textual.contains(key), !(path.isEmpty || path == ["help"]) else { continue }
                let help = argument["abstract"] as? String ?? ""
                guard let range = statedRange(help) else {
                    Issue.record("\((path + [key]).joined(separator: " ")): a numeric option must state its range as (LOW…HIGH) in its help: \(help)")
                    continue
                }
                found.append(Numeric(command: path, name: kind == "option" ? "--" + key : nil, range: range))
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                walk(sub, path: path + [sub["commandName"] as? String ?? "?"])
            }
        }
        walk(try #require(json["command"] as? [String: Any]), path: [])
        return found
    }

    /// "(1…4096)", "(-8192…8191; 0 = centre)", "(0.001…600)".
    static func statedRange(_ help: String) -> ClosedRange<Double>? {
        guard let open = help.range(of: #"\((-?[0-9.]+)…(-?[0-9.]+)"#, options: .regularExpression) else { return nil }
        let parts = help[open].dropFirst().split(separator: "…").compactMap { Double($0) }
        return parts.count == 2 && parts[0] <= parts[1] ? parts[0]...parts[1] : nil
    }

    @Test func everyCommandWithNumbersIsFound() throws {
        let commands = Set(try Self.numericOptions().map { $0.command.joined(separator: " ") })
        #expect(commands == ["play", "demo", "render", "note", "cc", "bend", "program", "preset check", "pitch", "bench", "soak"], "\(commands)")
    }

    @Test(arguments: ["play", "demo", "render", "note", "cc", "bend", "program", "preset check", "pitch", "bench", "soak"])
    func outOfRangeValuesGetOneErrorLineAndStatus64(command: String) throws {
        let scratch = TemporaryDirectory()
        chmod(scratch.path, 0o700)
        let options = try Self.numericOptions().filter { $0.command.joined(separator: " ") == command }
        #expect(!options.isEmpty)
        var runs = 0
        for option in options {
            for value in Self.values {
                if let number = Double(value), option.range.contains(number) { continue }  // allowed: it would run
                let attempts = option.name.map { [option.command + Self.placeholder(command) + [$0, value]] }
                    ?? (Self.templates[command] ?? []).map { option.command + $0.map { $0 == "{}" ? value : $0 } }
                for arguments in attempts {
                    runs += 1
                    let r = try cli.run(arguments, environment: ["XDG_RUNTIME_DIR": scratch.path])
                    let errors = r.output.split(separator: "\n").filter { $0.hasPrefix("Error:") }
                    #expect(r.status == 64, "\(arguments): status \(r.status): \(r.output.prefix(300))")
                    #expect(errors.count == 1, "\(arguments): \(r.output.prefix(300))")
                    let names = option.name.map { [$0] } ?? ["'\(value)'", "(got \(value))"]
                    #expect(errors.first.map { line in names.contains { line.contains($0) } } == true,
                            "\(arguments): the error names \(option.name ?? "the value"): \(errors)")
                    #expect(!r.output.contains("Fatal error") && !r.output.contains("Backtrace"), "\(arguments): \(r.output.prefix(300))")
                }
            }
        }
        #expect(runs >= 2 * options.count, "\(runs) runs")
    }

    /// Valid positional values, so that an option's own error is what is reported.
    static func placeholder(_ command: String) -> [String] {
        switch command {
        case "note": ["C4"]
        case "cc": ["7", "0"]
        case "bend", "program": ["0"]
        case "pitch": ["missing.wav"]
        case "preset check": ["missing.aupreset"]
        default: []
        }
    }
}
