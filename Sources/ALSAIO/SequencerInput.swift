import MIDI
import MemberwiseInit

/// What the sequencer thread hands the application. Plain value; no allocation to pass on.
public enum SequencerInput: Sendable, Equatable {
    /// A channel message from `source`, stamped with CLOCK_MONOTONIC nanoseconds at arrival
    /// (`MonotonicClock.nanoseconds()`). Note-on with velocity 0 arrives as note-off.
    case message(MIDIMessage, source: SequencerAddress, arrivalNanoseconds: UInt64)
    /// `source` subscribed to our input port (by autoconnect, `connect(spec:)` or `aconnect`).
    case sourceConnected(SequencerAddress)
    /// `source` was disconnected from us or disappeared (port or client exit). Notes it
    /// started will get no note-off: release them (see `SourceNoteTracker`).
    case sourceGone(SequencerAddress)
    /// A one-shot command sender (`audiograph cc`, `note`…: its events carry
    /// `SequencerSender.commandTag`) exited. Release notes it still holds (a `note` killed
    /// mid-way) but keep the controllers it set: `cc 64 127` means "pedal down until
    /// `cc 64 0`", not "while the command runs".
    case commandSenderGone(SequencerAddress)
    /// What autoconnect decided about a port, once per port and whenever the verdict changes.
    case autoconnect(AutoconnectDecision)
    /// The kernel's queue of events for us overflowed (-ENOSPC on input): it discarded what it
    /// held (up to `SequencerClient.inputPoolEvents` events), before we could read them.
    /// `total` counts every overrun since start.
    case inputOverrun(total: Int)
}

/// How the sequencer client presents itself and whom it connects to by itself.
@PublicInit
public struct SequencerClientOptions: Sendable, Equatable {
    /// The client name others see in `aconnect -l` (and address us by).
    public var clientName: String = "AudioGraph"
    /// Our input port's name.
    public var portName: String = "MIDI In"
    /// nil turns autoconnect off (connect with `connect(spec:)` or `aconnect` instead).
    public var autoconnect: AutoconnectPolicy? = AutoconnectPolicy()
    /// How long the reader thread waits in poll() before checking whether to stop.
    public var pollTimeoutMilliseconds: Int32 = 100
}

/// Event counters of a running sequencer client. Plain value read from atomics.
public struct SequencerCounters: Sendable, Equatable {
    /// Channel messages delivered to the sink.
    public var delivered: Int
    /// Events that were not channel messages we handle (SysEx, clock, …): dropped.
    public var dropped: Int
    /// Times the kernel's input queue overflowed (events lost before we read them).
    public var inputOverruns: Int
    /// The kernel's own count of events it could not deliver on our behalf
    /// (`snd_seq_client_info_get_event_lost`), read after each overrun.
    public var kernelEventsLost: Int
}
