import ArgumentParser

/// `audiograph`: the instrument's command line. Each subcommand lives in its own file.
public struct AudioGraphCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "audiograph",
        abstract: "A MIDI-driven sampler and synth instrument for Linux.",
        subcommands: [RenderCommand.self, ParamsCommand.self, BenchCommand.self])

    public init() {}
}
