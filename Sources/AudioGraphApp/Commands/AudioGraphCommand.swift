import ArgumentParser

/// `audiograph`: the instrument's command line. Each subcommand lives in its own file.
public struct AudioGraphCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "audiograph",
        abstract: "A MIDI-driven sampler and synth instrument for Linux.",
        subcommands: [
            PlayCommand.self, DemoCommand.self, RenderCommand.self, NoteCommand.self, ControlChangeCommand.self, BendCommand.self,
            ProgramCommand.self, PanicCommand.self, SetCommand.self, StatusCommand.self, PortsCommand.self, ParamsCommand.self,
            PresetCommand.self, SoundFontCommand.self, PitchCommand.self, BenchCommand.self, SoakCommand.self,
        ])

    public init() {}
}
