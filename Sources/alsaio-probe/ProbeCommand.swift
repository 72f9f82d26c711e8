import ALSAIO

#if canImport(Glibc)
import Glibc
#endif

/// Writes one line to stdout unbuffered (lines from several threads stay whole).
func say(_ line: String) {
    let text = line + "\n"
    _ = text.withCString { write(1, $0, strlen($0)) }
}

/// Dispatches the probe's subcommands; returns the exit status.
enum ProbeCommand {
    static func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else { return usage() }
        let rest = Array(arguments.dropFirst())
        do {
            switch command {
            case "ports":
                for port in try SequencerClient.listPorts() { say(port.description) }
            case "pcm-list":
                for device in PCMDevice.listDevices() {
                    let direction = [device.supportsPlayback ? "playback" : nil, device.supportsCapture ? "capture" : nil]
                    say("\(device.name) [\(direction.compactMap { $0 }.joined(separator: ","))] \(device.description)")
                }
            case "listen":
                return try ListenProbe.run(rest)
            case "source":
                return SourceProbe.run(name: rest.first ?? "probe-source")
            case "send":
                return try sendNote(rest)
            case "play", "record":
                return try PCMProbe.run(command, rest)
            case "tracker":
                return TrackerProbe.run(rest)
            case "paced":
                return try PacedProbe.run(rest)
            case "rt":
                let (thread, status) = try RealtimeThread.start(name: "probe-rt", priority: 80) {}
                thread.join()
                say("realtime: \(status)")
            default:
                return usage()
            }
        } catch {
            say("error: \(error)")
            return 1
        }
        return 0
    }

    static func usage() -> Int32 {
        say("usage: alsaio-probe ports | pcm-list | listen SECONDS [--until-file F] [--connect SPEC] [--no-autoconnect]")
        say("       | source NAME | send NOTE [SECONDS] [--to SPEC] | play DEVICE HZ SECONDS [PERIOD PERIODS]")
        say("       | record DEVICE SECONDS FILE.wav [PERIOD PERIODS] | paced SECONDS PERIOD [PRIORITY] | tracker ROUNDS | rt")
        return 2
    }

    static func option(_ name: String, in arguments: [String]) -> String? {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }

    private static func sendNote(_ arguments: [String]) throws -> Int32 {
        guard let first = arguments.first, let note = UInt8(first), note < 128 else { return usage() }
        let seconds = arguments.count > 1 ? Double(arguments[1]) ?? 0.3 : 0.3
        let sender = try SequencerSender(destination: option("--to", in: arguments) ?? "AudioGraph:MIDI In")
        try sender.playNote(note: note, durationSeconds: seconds)
        say("sent note \(note) for \(seconds) s to \(sender.destination.address)")
        return 0
    }
}
