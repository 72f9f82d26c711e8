import ALSAIO
import ArgumentParser
import FileAccess
import Foundation
import MIDI

/// Where the commands that send MIDI through the sequencer send it. Each command is a short-lived
/// sequencer client whose events are tagged as a command's (`SequencerSender.commandTag`): when it
/// exits, the instrument releases notes it left held but keeps the controllers it set, so
/// `cc 64 127` holds the pedal until `cc 64 0`.
struct DestinationOptions: ParsableArguments {
    @Option(help: "Destination port.")
    var to = "AudioGraph:MIDI In"

    func sender() throws -> SequencerSender {
        do { return try SequencerSender(destination: to) } catch { throw InstrumentError("\(error)") }
    }
}

/// Options of the commands that act on one MIDI channel (`note`, `cc`, `bend`, `program`).
struct SendOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "MIDI channel (1…16).")
    var channel = 1

    @OptionGroup var destination: DestinationOptions

    func validate() throws {
        try OptionRange.check(channel, 1...16, "--channel")
    }

    var midiChannel: UInt8 { UInt8(channel - 1) }

    func sender() throws -> SequencerSender { try destination.sender() }
}

/// The positional values of `note`, `cc`, `bend` and `program`, collected with `.allUnrecognized`
/// so that a negative number ("bend -4096", "cc 7 -1") is a value, not taken for an option:
/// exactly `names.count` of them (a `--` before them is allowed), else one line saying what is wanted.
func positionalValues(_ values: [String], _ names: [String]) throws -> [String] {
    let given = values.first == "--" ? Array(values.dropFirst()) : values
    guard given.count == names.count else {
        let shown = given.map { "'\(PrintableText.escaped($0))'" }.joined(separator: " ")
        throw ValidationError("expected \(names.joined(separator: " ")), got \(given.isEmpty ? "nothing" : shown)")
    }
    return given
}

func parseByte(_ text: String, _ what: String, range: ClosedRange<Int> = 0...127) throws -> UInt8 {
    guard let v = Int(text), range.contains(v) else {
        throw ValidationError("\(what) must be between \(range.lowerBound) and \(range.upperBound) (got '\(PrintableText.escaped(text))')")
    }
    return UInt8(v)
}

/// `audiograph note C4 --duration 0.3`
struct NoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "note", abstract: "Play a note on the running instrument.")

    @Argument(parsing: .allUnrecognized, help: "Note number (0…127) or name (C4 = 60, F#3, Bb2).")
    var values: [String] = []
    var note: String { values.last { $0 != "--" } ?? "" }

    @Option(parsing: .unconditional, help: "Velocity (1…127).")
    var velocity = 100

    @Option(parsing: .unconditional, help: "Seconds until the note-off (0.001…600).")
    var duration = 0.5

    @OptionGroup var send: SendOptions

    func validate() throws {
        _ = try positionalValues(values, ["NOTE"])
        guard NoteName.parse(note).map({ (0...127).contains($0) }) == true else {
            throw ValidationError("'\(PrintableText.escaped(note))' is not a note (0…127 or a name like C4, F#3)")
        }
        try OptionRange.check(velocity, 1...127, "--velocity")
        try OptionRange.check(duration, 0.001...600, "--duration", unit: "s")
    }

    func run() throws {
        let number = UInt8(NoteName.parse(note)!)
        try send.sender().playNote(channel: send.midiChannel, note: number, velocity: UInt8(velocity), durationSeconds: duration)
    }
}

/// `audiograph cc NUMBER VALUE`
struct ControlChangeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cc", abstract: "Send a control change.")
    @Argument(parsing: .allUnrecognized, help: "Controller number and value (0…127 each).") var values: [String] = []
    @OptionGroup var send: SendOptions

    func validate() throws {
        let given = try positionalValues(values, ["NUMBER", "VALUE"])
        _ = try parseByte(given[0], "controller number")
        _ = try parseByte(given[1], "controller value")
    }

    func run() throws {
        let given = try positionalValues(values, ["NUMBER", "VALUE"])
        let cc = try parseByte(given[0], "controller number"), v = try parseByte(given[1], "controller value")
        try send.sender().send(.controlChange(channel: send.midiChannel, controller: cc, value: v))
    }
}

/// `audiograph bend VALUE` (−8192…8191, 0 = centre)
struct BendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bend", abstract: "Send pitch bend, −8192…8191 (0 = centre).")
    /// Collected as text, so that a negative value is a value and not taken for an option.
    @Argument(parsing: .allUnrecognized, help: "Bend value (-8192…8191; 0 = centre).") var value: [String] = []
    @OptionGroup var send: SendOptions

    func validate() throws { _ = try bend() }

    func run() throws {
        try send.sender().send(.pitchBend(channel: send.midiChannel, value: Int16(try bend())))
    }

    private func bend() throws -> Int {
        let text = try positionalValues(value, ["VALUE"])[0]
        guard let bend = Int(text) else { throw ValidationError("bend must be a whole number, -8192…8191 (got '\(PrintableText.escaped(text))')") }
        try OptionRange.check(bend, -8192...8191, "bend")
        return bend
    }
}

/// `audiograph program N`
struct ProgramCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "program", abstract: "Switch to program N of the instrument's program list (0-based).")
    @Argument(parsing: .allUnrecognized, help: "Program number (0…127).") var values: [String] = []
    @OptionGroup var send: SendOptions

    func validate() throws { _ = try program() }

    func run() throws {
        try send.sender().send(.programChange(channel: send.midiChannel, program: try program()))
    }

    private func program() throws -> UInt8 { try parseByte(positionalValues(values, ["PROGRAM"])[0], "program") }
}

/// `audiograph panic`: all notes off, sustain up and all sound off on every channel (so no --channel).
struct PanicCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "panic", abstract: "Silence everything: sustain off, all notes off, all sound off on all channels.")
    @OptionGroup var send: DestinationOptions

    func run() throws {
        let sender = try send.sender()
        for channel in 0..<UInt8(16) {
            for cc in [MIDIController.sustainPedal, MIDIController.allNotesOff, MIDIController.allSoundOff] {
                try sender.send(.controlChange(channel: channel, controller: cc, value: 0))
            }
        }
    }
}

/// `audiograph set name=value…` on the running instrument.
struct SetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "set", abstract: "Set parameters of the running instrument (name=value…).")
    @Argument(help: "Assignments, e.g. master.lowpass.cutoff=2000 mic.effect=delay.") var assignments: [String]

    func validate() throws {
        // The request is one line: a newline inside an assignment would cut it there.
        for assignment in assignments where PrintableText.hasControlCharacter(assignment) {
            throw ValidationError("'\(PrintableText.escaped(assignment))' holds a control character; give name=value on one line")
        }
    }

    func run() throws {
        let reply = try ControlSocket.send("set " + assignments.joined(separator: " "))
        guard reply.hasPrefix("ok") else { throw InstrumentError(reply.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "error: ", with: "")) }
    }
}

/// `audiograph status [--json]`
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Meters, pitch, voices, xruns, DSP load and devices of the running instrument.")
    @Flag(help: "JSON for scripts.") var json = false

    func run() throws {
        let reply = try ControlSocket.send(json ? "status --json" : "status")
        guard reply.hasPrefix("ok") else { throw InstrumentError(reply.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "error: ", with: "")) }
        printOutside(reply.dropFirst(3).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
