import ALSAIO
import MIDI

#if canImport(Glibc)
import Glibc
#endif

/// Runs the real client and prints every `SequencerInput`, with what `SourceNoteTracker`
/// would release when a source goes.
enum ListenProbe {
    /// `@unchecked Sendable`: the tracker is used only on the sequencer's reader thread (the sink's), so it needs no lock.
    final class TrackerBox: @unchecked Sendable {
        var tracker = SourceNoteTracker()
    }

    static func run(_ arguments: [String]) throws -> Int32 {
        let seconds = Double(arguments.first ?? "") ?? 10
        let untilFile = ProbeCommand.option("--until-file", in: arguments)
        let options = SequencerClientOptions(
            autoconnect: arguments.contains("--no-autoconnect") ? nil : AutoconnectPolicy())
        let client = try SequencerClient(options: options)
        let box = TrackerBox()
        let status = try client.start { input in
            switch input {
            case .message(let message, let source, let nanoseconds):
                box.tracker.observe(message, from: source)
                say("message \(message) from \(source) at \(nanoseconds)")
            case .sourceConnected(let source):
                say("connected \(source) at \(MonotonicClock.nanoseconds())")
            case .sourceGone(let source):
                let release = box.tracker.releaseMessages(for: source)
                say("gone \(source) at \(MonotonicClock.nanoseconds()) release \(release)")
            case .commandSenderGone(let source):
                let release = box.tracker.releaseMessages(for: source, liftingPedal: false)
                say("command sender gone \(source) at \(MonotonicClock.nanoseconds()) release \(release)")
            case .autoconnect(let decision):
                say("autoconnect: \(decision)")
            case .inputOverrun(let total):
                say("input overrun \(total)")
            }
        }
        say("midi thread: \(status)")
        var connectSpecs: [String] = []
        var index = 0
        while index < arguments.count {
            if arguments[index] == "--connect", index + 1 < arguments.count { connectSpecs.append(arguments[index + 1]) }
            index += 1
        }
        for spec in connectSpecs {
            let port = try client.connect(spec: spec)
            say("connect \(spec) -> \(port.description)")
        }
        say("ready \(client.options.clientName) \(client.inputAddress)")
        let end = MonotonicClock.nanoseconds() + UInt64(seconds * 1e9)
        while MonotonicClock.nanoseconds() < end {
            if let untilFile, access(untilFile, F_OK) == 0 { break }
            usleep(50_000)
        }
        client.stop()
        let counters = client.counters
        say("counters delivered \(counters.delivered) dropped \(counters.dropped) overruns \(counters.inputOverruns)")
        return 0
    }
}
