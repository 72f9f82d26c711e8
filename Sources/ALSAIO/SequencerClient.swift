import Synchronization
import CALSA
import MIDI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Our ALSA sequencer client: one writable input port (`AudioGraph:MIDI In`) that others
/// connect to, a reader thread that turns events into `SequencerInput`, autoconnect of
/// ports as they appear (`AutoconnectPolicy`, each verdict reported once), and `sourceGone`
/// (or `commandSenderGone`) when a source leaves.
///
/// Threads: `init`, `start`, `connect`, `disconnect`, `ports`, `stop` on a control thread;
/// the sink runs on the client's own reader thread (keep it short: push into a queue).
/// `counters` from any thread.
///
/// `@unchecked Sendable`: the sink and the source sets belong to the reader thread once it runs
/// (`start` hands them over before creating it); the handle is used by one thread at a time; the
/// counters are atomic.
public final class SequencerClient: @unchecked Sendable {
    public let options: SequencerClientOptions
    /// Our input port's address (client is usually 128 or above).
    public let inputAddress: SequencerAddress

    private let seq: OpaquePointer
    private let inputPort: Int32
    private let announcePort: Int32
    private let running = Atomic<Bool>(false)
    private let delivered = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
    private let overruns = Atomic<Int>(0)
    private let kernelLost = Atomic<Int>(0)
    private var thread: ThreadHandle?

    // Reader-thread state (touched only by the reader thread once started).
    private var sink: @Sendable (SequencerInput) -> Void = { _ in }
    private var knownSources: Set<SequencerAddress> = []
    /// Sources whose events carried `SequencerSender.commandTag`: they leave with `commandSenderGone`.
    private var commandSenders: Set<SequencerAddress> = []
    private var autoconnected: Set<SequencerAddress> = []
    /// The last verdict reported per port, so a port is logged once, not on every change notice.
    private var verdicts: [SequencerAddress: AutoconnectDecision.Reason] = [:]

    /// Opens the client and creates its input port; nothing is read until `start`.
    /// Control thread.
    public init(options: SequencerClientOptions = SequencerClientOptions()) throws(ALSAError) {
        self.options = options
        let seq = try SequencerHandle.open(clientName: options.clientName, mode: calsa_seq_open_duplex)
        let writable = SequencerPortCapability.write | SequencerPortCapability.subscribeWrite
        let input = snd_seq_create_simple_port(
            seq, options.portName, writable, SequencerPortType.midiGeneric | SequencerPortType.application)
        // A private port (NO_EXPORT: hidden from aconnect) receives System Announce, so
        // client/port start and exit notices never mix with the MIDI stream.
        let announce = snd_seq_create_simple_port(
            seq, "announcements", SequencerPortCapability.write | SequencerPortCapability.noExport,
            SequencerPortType.application)
        let subscribed =
            announce < 0 ? announce : snd_seq_connect_from(seq, announce, Int32(SND_SEQ_CLIENT_SYSTEM), Int32(SND_SEQ_PORT_SYSTEM_ANNOUNCE))
        guard input >= 0, announce >= 0, subscribed >= 0 else {
            snd_seq_close(seq)
            throw ALSAError(
                operation: "creating sequencer port '\(options.clientName):\(options.portName)'",
                code: min(input, announce, subscribed))
        }
        snd_seq_nonblock(seq, 1)
        // The kernel's queue for us at its largest (a burst waits there instead of overflowing
        // it, which discards the whole queue), read in batches of up to 512 events per syscall.
        _ = snd_seq_set_client_pool_input(seq, Self.inputPoolEvents)
        _ = snd_seq_set_input_buffer_size(seq, 512 * MemoryLayout<snd_seq_event_t>.size)
        self.seq = seq
        inputPort = input
        announcePort = announce
        inputAddress = SequencerAddress(client: UInt8(truncatingIfNeeded: snd_seq_client_id(seq)), port: UInt8(truncatingIfNeeded: input))
    }

    deinit {
        stop()
        snd_seq_close(seq)
    }

    /// Events the kernel queues for us before an overrun (its maximum, SNDRV_SEQ_MAX_CLIENT_EVENTS).
    public static let inputPoolEvents = 2000

    /// Event counts since start. Any thread.
    public var counters: SequencerCounters {
        SequencerCounters(
            delivered: delivered.load(ordering: .relaxed), dropped: dropped.load(ordering: .relaxed),
            inputOverruns: overruns.load(ordering: .relaxed), kernelEventsLost: kernelLost.load(ordering: .relaxed))
    }

    /// Starts the reader thread (SCHED_FIFO at `priority` if given and allowed), which first
    /// autoconnects existing ports and then delivers events to `sink` until `stop()`.
    /// Returns the thread's scheduling status. Control thread; call once.
    @discardableResult
    public func start(priority: Int32? = nil, sink: @escaping @Sendable (SequencerInput) -> Void) throws(ALSAError)
        -> RealtimeStatus
    {
        guard !running.load(ordering: .acquiring) else {
            throw ALSAError(operation: "starting the sequencer client", code: -EBUSY, detail: "already started")
        }
        self.sink = sink
        running.store(true, ordering: .releasing)
        do {
            let (handle, status) = try RealtimeThread.start(name: "agraph-midi", priority: priority, lockMemory: false) {
                // unowned(unsafe): deinit joins this thread before the object goes away.
                [unowned(unsafe) self] in self.readLoop()
            }
            thread = handle
            return status
        } catch {
            running.store(false, ordering: .releasing)
            throw ALSAError(operation: error.description, code: -error.code)
        }
    }

    /// Stops and joins the reader thread; the sink is not called after this returns.
    /// Control thread; idempotent.
    public func stop() {
        running.store(false, ordering: .releasing)
        thread?.join()
        thread = nil
    }

    /// Connects the readable port `spec` names (see `SequencerPortSpec`) to our input.
    /// Already connected is not an error. Control thread.
    @discardableResult
    public func connect(spec: String) throws(ALSAError) -> SequencerPortInfo {
        let source = try SequencerPortSpec(parsing: spec).resolve(in: ports(), where: \.isReadableSource)
        let result = snd_seq_connect_from(seq, inputPort, Int32(source.client), Int32(source.port))
        if result < 0 && result != -EBUSY {
            throw ALSAError(operation: "connecting \(source.client):\(source.port) to \(inputAddress)", code: result)
        }
        return source
    }

    /// Removes the subscription from `spec` to our input. Control thread.
    public func disconnect(spec: String) throws(ALSAError) {
        let source = try SequencerPortSpec(parsing: spec).resolve(in: ports(), where: \.isReadableSource)
        try alsaCheck(
            snd_seq_disconnect_from(seq, inputPort, Int32(source.client), Int32(source.port)),
            "disconnecting \(source.client):\(source.port) from \(inputAddress)")
    }

    /// All ports on the system, seen from this client. Control thread.
    public func ports() -> [SequencerPortInfo] { SequencerHandle.allPorts(seq) }

    /// All ports on the system, like `aconnect -l`, without a running client. Control thread.
    public static func listPorts() throws(ALSAError) -> [SequencerPortInfo] {
        let seq = try SequencerHandle.open(clientName: "audiograph-list", mode: calsa_seq_open_output)
        defer { snd_seq_close(seq) }
        return SequencerHandle.allPorts(seq)
    }

    // MARK: reader thread

    private func readLoop() {
        if options.autoconnect != nil {
            let all = SequencerHandle.allPorts(seq)
            for port in all { considerAutoconnect(port, among: all) }
        }
        let count = Int(snd_seq_poll_descriptors_count(seq, Int16(POLLIN)))
        let descriptors = UnsafeMutablePointer<pollfd>.allocate(capacity: max(count, 1))
        defer { descriptors.deallocate() }
        let filled = snd_seq_poll_descriptors(seq, descriptors, UInt32(count), Int16(POLLIN))
        while running.load(ordering: .acquiring) {
            // A drain that found a flood waiting is followed by a pause, so the next reads take
            // hundreds of events per system call instead of a few (arrival stamps are then up
            // to the pause late, only while the flood lasts).
            if poll(descriptors, nfds_t(filled), options.pollTimeoutMilliseconds) > 0, drainInput() >= Self.floodEvents {
                usleep(Self.floodPauseMicroseconds)
            }
        }
    }

    /// Reads everything queued. Arrival is stamped once per batch the library reads from the
    /// kernel (up to 512 events, all already waiting), not per event: reading the clock can cost
    /// microseconds (a virtual machine without a stable TSC traps into the hypervisor), which per
    /// event made the reader the bottleneck of a MIDI flood.
    /// Events read at once that mean a flood, and the pause after them.
    static let floodEvents = 64
    static let floodPauseMicroseconds: UInt32 = 2_000

    /// Returns how many events it read.
    private func drainInput() -> Int {
        var arrival = MonotonicClock.nanoseconds()
        var count = 0
        while true {
            if snd_seq_event_input_pending(seq, 0) == 0 { arrival = MonotonicClock.nanoseconds() }
            var event: UnsafeMutablePointer<snd_seq_event_t>?
            let result = snd_seq_event_input(seq, &event)
            if result == -ENOSPC {
                let total = overruns.wrappingAdd(1, ordering: .relaxed).newValue
                readKernelLostCount()
                sink(.inputOverrun(total: total))
                continue
            }
            guard result >= 0, let event else { return count }
            count += 1
            handle(event.pointee, arrivalNanoseconds: arrival)
        }
    }

    private func readKernelLostCount() {
        var info: OpaquePointer?
        guard snd_seq_client_info_malloc(&info) >= 0, let info else { return }
        defer { snd_seq_client_info_free(info) }
        if snd_seq_get_client_info(seq, info) >= 0 {
            kernelLost.store(Int(snd_seq_client_info_get_event_lost(info)), ordering: .relaxed)
        }
    }

    private func handle(_ event: snd_seq_event_t, arrivalNanoseconds: UInt64) {
        let source = SequencerAddress(client: event.source.client, port: event.source.port)
        if source.client == UInt8(SND_SEQ_CLIENT_SYSTEM) && handleSystemEvent(event) { return }
        guard let message = Self.message(of: event) else {
            dropped.wrappingAdd(1, ordering: .relaxed)
            return
        }
        knownSources.insert(source)
        if event.tag == SequencerSender.commandTag { commandSenders.insert(source) }
        delivered.wrappingAdd(1, ordering: .relaxed)
        sink(.message(message, source: source, arrivalNanoseconds: arrivalNanoseconds))
    }

    private static func message(of event: snd_seq_event_t) -> MIDIMessage? {
        guard event.type == SequencerEventType.sysex else {
            return SequencerEventTranslator.message(from: SequencerEventTranslator.fields(of: event))
        }
        let ext = event.data.ext
        guard let pointer = ext.ptr else { return nil }
        return SequencerEventTranslator.message(sysex: UnsafeRawBufferPointer(start: pointer, count: Int(ext.len)))
    }

    /// Announcements and subscription notices; returns false for anything else.
    private func handleSystemEvent(_ event: snd_seq_event_t) -> Bool {
        let address = SequencerAddress(client: event.data.addr.client, port: event.data.addr.port)
        switch event.type {
        case SequencerEventType.portSubscribed, SequencerEventType.portUnsubscribed:
            let connection = event.data.connect
            guard connection.dest.client == inputAddress.client, connection.dest.port == inputAddress.port else { return true }
            let sender = SequencerAddress(client: connection.sender.client, port: connection.sender.port)
            if event.type == SequencerEventType.portSubscribed {
                // The kernel tells our port and the announce port about the same subscription: report it once.
                if knownSources.insert(sender).inserted { sink(.sourceConnected(sender)) }
            } else {
                autoconnected.remove(sender)
                sourceGone(sender)
            }
        case SequencerEventType.portStart, SequencerEventType.portChange:
            guard options.autoconnect != nil else { return true }
            let all = SequencerHandle.allPorts(seq)
            if let port = all.first(where: { $0.address == address }) { considerAutoconnect(port, among: all) }
        case SequencerEventType.clientStart:
            guard options.autoconnect != nil else { return true }
            let all = SequencerHandle.allPorts(seq)
            for port in all where port.client == Int(address.client) { considerAutoconnect(port, among: all) }
        case SequencerEventType.portExit:
            autoconnected.remove(address)
            verdicts[address] = nil
            sourceGone(address)
        case SequencerEventType.clientExit:
            autoconnected = autoconnected.filter { $0.client != address.client }
            verdicts = verdicts.filter { $0.key.client != address.client }
            for gone in knownSources.filter({ $0.client == address.client }).sorted(by: { $0.port < $1.port }) {
                sourceGone(gone)
            }
        default:
            return false
        }
        return true
    }

    private func sourceGone(_ source: SequencerAddress) {
        guard knownSources.remove(source) != nil else { return }
        sink(commandSenders.remove(source) != nil ? .commandSenderGone(source) : .sourceGone(source))
    }

    /// Decides on `port` (`all`: every port now), reports a new verdict, connects when taken.
    private func considerAutoconnect(_ port: SequencerPortInfo, among all: [SequencerPortInfo]) {
        guard let policy = options.autoconnect,
            let decision = policy.decide(port, among: all, ownClient: Int(inputAddress.client))
        else { return }
        if verdicts.updateValue(decision.reason, forKey: port.address) != decision.reason { sink(.autoconnect(decision)) }
        if decision.take && !autoconnected.contains(port.address) { autoconnect(port.address) }
    }

    private func autoconnect(_ address: SequencerAddress) {
        let result = snd_seq_connect_from(seq, inputPort, Int32(address.client), Int32(address.port))
        if result >= 0 || result == -EBUSY { autoconnected.insert(address) }
    }
}
