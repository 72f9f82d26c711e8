import ArgumentParser
import Engine

/// `audiograph params`: every parameter with its unit, range, default and meaning.
struct ParamsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "params", abstract: "List every parameter: name, unit, range, default.")

    func run() throws {
        let engine = try AudioEngine(configuration: EngineConfiguration(maxFrames: 64))
        let table = engine.parameters
        let width = table.descriptors.map(\.name.count).max() ?? 0
        for d in table.descriptors {
            let range: String
            switch d.kind {
            case .toggle: range = "on|off"
            case .choice(let names): range = names.joined(separator: "|")
            default: range = "\(d.format(d.range.lowerBound)) … \(d.format(d.range.upperBound))"
            }
            // Padded, never truncated (padding(toLength:) would cut long choice lists).
            let name = d.name.padding(toLength: width, withPad: " ", startingAt: 0)
            print("\(name)  \(range + String(repeating: " ", count: max(0, 44 - range.count)))  default \(d.format(d.defaultValue))  — \(d.summary)")
        }
    }
}
