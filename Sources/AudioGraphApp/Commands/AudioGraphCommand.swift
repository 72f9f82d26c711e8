import ArgumentParser
import FileAccess
import Foundation

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

    /// `main()`, with what it prints for an error made safe for a terminal: messages quote paths,
    /// keys and values from outside, and an escape sequence among them must not reach the screen.
    public static func mainEscapingOutsideText() -> Never {
        do {
            var command = try parseAsRoot()
            try command.run()
            Foundation.exit(0)
        } catch {
            let code = exitCode(for: error)
            let message = PrintableText.escaped(fullMessage(for: error), keepingNewlines: true)
            if !message.isEmpty {
                (code == .success ? FileHandle.standardOutput : FileHandle.standardError).write(Data((message + "\n").utf8))
            }
            Foundation.exit(code.rawValue)
        }
    }
}
