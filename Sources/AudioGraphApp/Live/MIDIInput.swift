import ALSAIO
import LiveLoop

/// `play`'s MIDI input: our ALSA sequencer client, its reader thread feeding the inbox, and the
/// connections asked for. Control thread.
enum MIDIInput {
    /// The running client, or nil when there is no sequencer (said in the log: notes can still
    /// come from a song or the control socket). `priority`: the reader thread's SCHED_FIFO
    /// priority (nil: normal scheduling).
    static func start(options: LiveOptions, priority: Int32?, inbox: MIDIInbox) -> SequencerClient? {
        do {
            let client = try SequencerClient(options: SequencerClientOptions(autoconnect: options.autoconnect, pollTimeoutMilliseconds: 20))
            // Arrival stamps are every note's timing reference: the reader must wake as promptly
            // as the render thread (just below it), or its scheduling delay becomes onset jitter.
            let reader = try client.start(priority: priority) { inbox.receive($0) }
            LiveLog.line("MIDI input: \(client.options.clientName):\(client.options.portName) at \(client.inputAddress)"
                         + (options.autoconnect != nil ? " (autoconnect on)" : "") + ", reader thread: \(reader)")
            for spec in options.connect {
                do {
                    let port = try client.connect(spec: spec)
                    LiveLog.line("connected \(port.address) '\(port.clientName):\(port.portName)'")
                } catch {
                    LiveLog.line("cannot connect '\(spec)': \(error)")
                }
            }
            return client
        } catch {
            LiveLog.line("no ALSA sequencer (\(error)): MIDI input disabled; notes can still come from a song or the control socket")
            return nil
        }
    }
}
