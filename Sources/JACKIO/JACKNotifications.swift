import Synchronization

/// What JACK tells a client besides the process cycle, published for the control thread: the
/// buffer size and sample rate it switched to, xruns, and the server's shutdown. JACK calls these
/// from its own non-real-time notification thread (the process callback only counts dropped MIDI).
/// Any thread.
public final class JACKNotifications: Sendable {
    /// JACK's buffer size, as of its last buffer-size callback.
    public let bufferSize = Atomic<Int>(0)
    /// JACK's sample rate, as of its last sample-rate callback.
    public let sampleRate = Atomic<Int>(0)
    /// Xruns the server reported to this client since it was opened.
    public let xruns = Atomic<Int>(0)
    /// The server shut down or threw the client out: close it and open a new one.
    public let shutDown = Atomic<Bool>(false)
    /// MIDI events the process callback could not keep (SysEx, more than fit in a cycle).
    public let midiDropped = Atomic<Int>(0)
    private let reasonStorage = Mutex<String>("")

    public init() {}

    /// Why the server shut the client down (JACK's words), once `shutDown` is set.
    public var shutdownReason: String { reasonStorage.withLock { $0 } }

    func recordShutdown(_ reason: String) {
        reasonStorage.withLock { $0 = reason }
        shutDown.store(true, ordering: .releasing)
    }
}
