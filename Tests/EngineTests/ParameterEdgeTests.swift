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
        ("master.gain=1e300", "master.gain must be between -60 dB and 12 dB (got 1e+300 dB)"),
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
}
