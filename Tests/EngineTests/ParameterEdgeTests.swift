import Engine
import MicEffects
import Testing

/// Issue 10 case 1: numbers beyond Int's range, infinities and NaN give a clear error, never a trap.
@Suite struct ParameterEdgeTests {
    let table: ParameterTable = {
        let engine = try! AudioEngine(configuration: EngineConfiguration(maxFrames: 64))
        return engine.parameters
    }()

    @Test(arguments: [
        ("synth.voices=1e308", "synth.voices must be between 1 and"),
        ("synth.voices=-9.3e18", "synth.voices must be between 1 and"),
        ("master.gain=1e300", "master.gain must be between -60 dB and 12 dB (got 1e300 dB)"),
        ("mic.effect=1e308", "mic.effect is one of " + MicEffectKind.allCases.map(\.name).joined(separator: ", ")),
        ("synth.bendrange=inf", "synth.bendrange needs a number"),
        ("master.gain=nan", "master.gain needs a number"),
    ])
    func hugeOrNonFiniteValuesAreRefusedWithTheRange(assignment: String, message: String) {
        #expect(throws: ParameterError.self) { try table.apply(assignment: assignment) }
        do { try table.apply(assignment: assignment) } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    @Test func setByNumberRefusesNonFiniteValues() {
        for value in [Double.nan, .infinity, -.infinity, 1e19] {
            #expect(throws: ParameterError.self) { try table.set("synth.voices", value: value) }
        }
    }

    @Test func formatNeverTraps() {
        for d in table.descriptors {
            for value in [Double.nan, .infinity, -.infinity, 1e308, -1e308, 9.3e18] { _ = d.format(value) }
        }
        let voices = table.descriptors[table.index(of: "synth.voices")!]
        #expect(voices.format(1e308) == "1e+308")
    }

    /// Control-socket abuse: a 64 kB name or value gives one short line, not the request echoed back.
    @Test func hugeRequestsGiveABoundedMessage() {
        let huge = String(repeating: "x", count: 65_536)
        for assignment in [huge, "\(huge)=1", "master.gain=\(huge)", "mic.effect=\(huge)"] {
            do {
                try table.apply(assignment: assignment)
                Issue.record("accepted")
            } catch {
                #expect(error.description.count < 400, "\(error.description.count) characters")
            }
        }
    }

    /// Issue 21: `set a=1 b=bad` changes nothing: every assignment is validated before any is applied.
    @Test func aRequestWithOneBadAssignmentAppliesNone() throws {
        let gain = try #require(table.index(of: "master.gain")), voices = try #require(table.index(of: "synth.voices"))
        let before = (table.value(gain), table.value(voices))
        for request in [["master.gain=-7", "synth.voices=bad"], ["master.gain=-7", "no.such=1"], ["synth.voices=9", "master.gain=99"],
                        ["master.gain=-7", "synth.voices"]] {
            #expect(throws: ParameterError.self) { try table.apply(assignments: request) }
            #expect(table.value(gain) == before.0 && table.value(voices) == before.1, "\(request) applied part of itself")
        }
        try table.apply(assignments: ["master.gain=-7", "synth.voices=9"])
        #expect(table.value(gain) == -7 && table.value(voices) == 9)
    }

    /// Issue 21: an embedded newline (or any control character) is refused, not cut at, and shown escaped.
    @Test func aControlCharacterInAnAssignmentIsRefusedAndShownEscaped() {
        for assignment in ["master.gain=-3\nmaster.gain=6", "master.gain=-3\u{1B}]0;pwned\u{7}", "mic.effect=delay\r"] {
            do {
                try table.apply(assignment: assignment)
                Issue.record("accepted \(assignment.debugDescription)")
            } catch {
                #expect(error.description.contains("holds a control character"), "\(error.description)")
                #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 }, "raw control character in \(error.description.debugDescription)")
            }
        }
        do { try table.apply(assignment: "master.gain=-3\nx") } catch { #expect(error.description.contains("master.gain=-3\\u{A}x")) }
    }

    /// Issue 21: an out-of-range value is quoted as given, not as the value it was rounded to.
    @Test(arguments: [("synth.voices=0.4", "(got 0.4)"), ("master.gain=12.0004", "(got 12.0004 dB)"), ("synth.voices=1e308", "(got 1e308)")])
    func aRangeErrorQuotesTheValueAsGiven(assignment: String, quoted: String) {
        do {
            try table.apply(assignment: assignment)
            Issue.record("accepted")
        } catch {
            #expect(error.description.contains(quoted), "\(error.description)")
        }
    }
}
