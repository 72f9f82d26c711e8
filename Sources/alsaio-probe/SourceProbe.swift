import ALSAIO
import CALSA

#if canImport(Glibc)
import Glibc
#endif

/// A stand-in for an rtpmidid session port: a client with one port of type MIDI_GENERIC
/// only (no HARDWARE/APPLICATION bit), readable and subscribable. Once someone subscribes
/// it sends note-ons 60 and 64 and sustain down, then waits to be killed, so the listener
/// must release them itself.
enum SourceProbe {
    static func run(name: String) -> Int32 {
        var opened: OpaquePointer?
        guard snd_seq_open(&opened, "default", calsa_seq_open_duplex, 0) >= 0, let seq = opened else {
            say("source: cannot open the sequencer")
            return 1
        }
        snd_seq_set_client_name(seq, name)
        let capabilities = UInt32(SND_SEQ_PORT_CAP_READ | SND_SEQ_PORT_CAP_SUBS_READ | SND_SEQ_PORT_CAP_WRITE | SND_SEQ_PORT_CAP_SUBS_WRITE)
        let createdNanoseconds = MonotonicClock.nanoseconds()  // taken before the port exists
        let port = snd_seq_create_simple_port(seq, "session", capabilities, UInt32(SND_SEQ_PORT_TYPE_MIDI_GENERIC))
        guard port >= 0 else {
            say("source: cannot create a port")
            return 1
        }
        say("source ready \(snd_seq_client_id(seq)):\(port) at \(createdNanoseconds)")
        while true {  // blocking reads: wait until someone subscribes to us
            var event: UnsafeMutablePointer<snd_seq_event_t>?
            guard snd_seq_event_input(seq, &event) >= 0, let event else { continue }
            if UInt32(event.pointee.type) == SND_SEQ_EVENT_PORT_SUBSCRIBED.rawValue {
                let sender = event.pointee.data.connect.dest
                say("source subscribed by \(sender.client):\(sender.port) at \(MonotonicClock.nanoseconds())")
                break
            }
        }
        for note in [60, 64] { send(seq, port) { calsa_seq_ev_set_noteon(&$0, 0, Int32(note), 100) } }
        send(seq, port) { calsa_seq_ev_set_controller(&$0, 0, 64, 127) }
        say("source sent held chord 60 64 with sustain down")
        while true { pause() }
    }

    private static func send(_ seq: OpaquePointer, _ port: Int32, _ fill: (inout snd_seq_event_t) -> Void) {
        var event = snd_seq_event_t()
        calsa_seq_ev_clear(&event)
        calsa_seq_ev_set_source(&event, UInt8(port))
        calsa_seq_ev_set_subs(&event)
        calsa_seq_ev_set_direct(&event)
        fill(&event)
        snd_seq_event_output_direct(seq, &event)
    }
}
