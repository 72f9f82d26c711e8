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
    @Option(help: "MIDI channel, 1–16.")
    var channel = 1

    @OptionGroup var destination: DestinationOptions

    func validate() throws {
        guard (1...16).contains(channel) else { throw ValidationError("--channel must be 1–16") }
    }

    var midiChannel: UInt8 { UInt8(channel - 1) }

    func sender() throws -> SequencerSender { try destination.sender() }
}

func parseByte(_ text: String, _ what: String, range: ClosedRange<Int> = 0...127) throws -> UInt8 {
    guard let v = Int(text), range.contains(v) else { throw ValidationError("\(what) must be \(range.lowerBound)–\(range.upperBound) (got '\(text)')") }
    return UInt8(v)
}

/// `audiograph note C4 --duration 0.3`
struct NoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "note", abstract: "Play a note on the running instrument.")

    @Argument(help: "Note number (0–127) or name (C4 = 60, F#3, Bb2).")
    var note: String

    @Option(help: "Velocity, 1–127.")
    var velocity = 100

    @Option(help: "Seconds until the note-off.")
    var duration = 0.5

    @OptionGroup var send: SendOptions

    func validate() throws {
        guard NoteName.parse(note).map({ (0...127).contains($0) }) == true else { throw ValidationError("'\(note)' is not a note (0–127 or a name like C4, F#3)") }
        guard (1...127).contains(velocity) else { throw ValidationError("--velocity must be 1–127") }
        guard duration > 0, duration <= 600 else { throw ValidationError("--duration must be between 0 and 600 seconds") }
    }

    func run() throws {
        let number = UInt8(NoteName.parse(note)!)
        try send.sender().playNote(channel: send.midiChannel, note: number, velocity: UInt8(velocity), durationSeconds: duration)
    }
}

/// `audiograph cc NUMBER VALUE`
struct ControlChangeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cc", abstract: "Send a control change.")
    @Argument var number: String
    @Argument var value: String
    @OptionGroup var send: SendOptions

    func run() throws {
        let cc = try parseByte(number, "controller number"), v = try parseByte(value, "controller value")
        try send.sender().send(.controlChange(channel: send.midiChannel, controller: cc, value: v))
    }
}

/// `audiograph bend VALUE` (−8192…8191, 0 = centre)
struct BendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bend", abstract: "Send pitch bend, −8192…8191 (0 = centre).")
    @Argument(help: "Bend value.") var value: Int
    @OptionGroup var send: SendOptions

    func validate() throws {
        guard (-8192...8191).contains(value) else { throw ValidationError("bend must be −8192…8191") }
    }

    func run() throws {
        try send.sender().send(.pitchBend(channel: send.midiChannel, value: Int16(value)))
    }
}

/// `audiograph program N`
struct ProgramCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "program", abstract: "Switch to program N of the instrument's program list (0-based).")
    @Argument var number: String
    @OptionGroup var send: SendOptions

    func run() throws {
        try send.sender().send(.programChange(channel: send.midiChannel, program: try parseByte(number, "program")))
    }
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
        print(reply.dropFirst(3).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
