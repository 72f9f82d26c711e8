import CALSA
import MIDI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A short-lived sequencer client that sends channel messages straight to one destination
/// port (no queue, no subscription): what `audiograph note C4` uses to poke a running
/// instance. Every event it sends carries `commandTag`, so the receiver knows that this
/// source's exit ends the command, not the performance (see `SequencerInput.commandSenderGone`).
/// Control thread only.
public final class SequencerSender {
    /// The `tag` byte of every event a sender sends (the kernel passes it through untouched;
    /// players such as aplaymidi leave it 0).
    public static let commandTag: UInt8 = 0xA6

    /// The port events go to.
    public let destination: SequencerPortInfo
    private let seq: OpaquePointer
    private let sourcePort: Int32

    /// Opens a client named `clientName` and finds `destination` (a `SequencerPortSpec`,
    /// default `AudioGraph:MIDI In`). Throws a readable error naming the missing program
    /// when no such port exists, e.g. "AudioGraph is not running".
    public init(destination spec: String = "AudioGraph:MIDI In", clientName: String = "audiograph-send") throws(ALSAError) {
        let parsed = try SequencerPortSpec(parsing: spec)
        let seq = try SequencerHandle.open(clientName: clientName, mode: calsa_seq_open_output)
        let port = snd_seq_create_simple_port(
            seq, "out", SequencerPortCapability.read, SequencerPortType.midiGeneric | SequencerPortType.application)
        guard port >= 0 else {
            snd_seq_close(seq)
            throw ALSAError(operation: "creating the sender's port", code: port)
        }
        do {
            destination = try parsed.resolve(in: SequencerHandle.allPorts(seq), where: \.isWritableDestination)
        } catch {
            snd_seq_close(seq)
            let program: String
            switch parsed.clientPart {
            case .name(let name): program = name
            case .number(let number): program = "sequencer client \(number)"
            }
            throw ALSAError(
                operation: "sending to \"\(spec)\"", code: 0,
                detail: "\(program) is not running, or has no such port (\(error.description)); see `aconnect -l`")
        }
        self.seq = seq
        sourcePort = port
    }

    deinit { snd_seq_close(seq) }

    /// Sends one message now. Throws when the destination has gone.
    public func send(_ message: MIDIMessage) throws(ALSAError) {
        var event = snd_seq_event_t()
        calsa_seq_ev_clear(&event)
        calsa_seq_ev_set_source(&event, UInt8(truncatingIfNeeded: sourcePort))
        calsa_seq_ev_set_dest(&event, Int32(destination.client), Int32(destination.port))
        calsa_seq_ev_set_direct(&event)
        event.tag = Self.commandTag
        guard case .system(let sysex) = message else {
            SequencerEventTranslator.encode(message, into: &event)
            try alsaCheck(snd_seq_event_output_direct(seq, &event), "sending \(message) to \(destination.address)")
            return
        }
        var bytes = sysex.bytes
        let result = bytes.withUnsafeMutableBytes { raw in
            calsa_seq_ev_set_sysex(&event, UInt32(raw.count), raw.baseAddress)
            return snd_seq_event_output_direct(seq, &event)
        }
        try alsaCheck(result, "sending \(message) to \(destination.address)")
    }

    /// Note-on, a wait of `durationSeconds` (blocking this thread), note-off.
    public func playNote(channel: UInt8 = 0, note: UInt8, velocity: UInt8 = 100, durationSeconds: Double) throws(ALSAError) {
        try send(.noteOn(channel: channel, note: note, velocity: velocity))
        let nanoseconds = UInt64(max(0, durationSeconds) * 1e9)
        var deadline = MonotonicClock.timespecFrom(nanoseconds: MonotonicClock.nanoseconds() + nanoseconds)
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) == EINTR {}
        try send(.noteOff(channel: channel, note: note, velocity: 0))
    }
}
