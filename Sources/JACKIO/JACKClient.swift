import CJACK
import MemberwiseInit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How to appear in the JACK graph.
@PublicInit
public struct JACKClientOptions: Sendable, Equatable {
    /// The client name (ports are `NAME:out_L`, …); JACK appends `-01` … when it is taken.
    public var name: String = "AudioGraph"
    /// The server to join; nil for `$JACK_DEFAULT_SERVER`, else "default".
    public var serverName: String? = nil
    /// Register `in_L`/`in_R` for the mic/line bus.
    public var input: Bool = false
    /// Register a MIDI in port, `midi_in`.
    public var midiInput: Bool = false
}

/// A native JACK client: its ports (`out_L`, `out_R`; `in_L`, `in_R` and `midi_in` when asked),
/// a process callback that hands each cycle to a `JACKRenderer`, and the server's notifications
/// (buffer size, sample rate, xruns, shutdown) published in `notifications`. Never starts a
/// server (JackNoStartServer): without one, `init` throws with `serverAbsent` set.
///
/// Threads: everything here on one control thread; the renderer runs on JACK's process thread
/// from `activate` until `deactivate`/`close`. After `notifications.shutDown`, `close` and open a
/// new client (JACK's rule: never close from inside a callback).
public final class JACKClient: @unchecked Sendable {
    public let options: JACKClientOptions
    /// The name JACK gave the client (the options' name, or that name with a suffix).
    public let name: String
    public let notifications = JACKNotifications()

    private var client: OpaquePointer?
    private let state: UnsafeMutablePointer<JACKProcessState>
    private var active = false

    public init(_ options: JACKClientOptions) throws(JACKError) {
        cjack_silence_messages()
        self.options = options
        var status = jack_status_t(0)
        let opened = options.name.withCString { name in
            if let server = options.serverName {
                return server.withCString { cjack_client_open(name, JackNoStartServer, &status, $0) }
            }
            return cjack_client_open(name, JackNoStartServer, &status, nil)
        }
        let onServer = options.serverName.map { " on server '\($0)'" } ?? ""
        guard let client = opened else {
            let (reason, absent) = JACKError.describe(status)
            throw JACKError(operation: "jack_client_open(\"\(options.name)\")\(onServer)", reason: reason, serverAbsent: absent)
        }
        self.client = client
        name = String(cString: jack_get_client_name(client))
        notifications.bufferSize.store(Int(jack_get_buffer_size(client)), ordering: .relaxed)
        notifications.sampleRate.store(Int(jack_get_sample_rate(client)), ordering: .relaxed)

        func register(_ short: String, _ type: UnsafePointer<CChar>, _ flags: JackPortFlags) throws(JACKError) -> OpaquePointer {
            guard let port = jack_port_register(client, short, type, UInt(flags.rawValue), 0) else {
                jack_client_close(client)
                throw JACKError(operation: "jack_port_register(\"\(short)\")", reason: "the server refused the port")
            }
            return port
        }
        let outLeft = try register("out_L", cjack_audio_type, JackPortIsOutput)
        let outRight = try register("out_R", cjack_audio_type, JackPortIsOutput)
        let inLeft = options.input ? try register("in_L", cjack_audio_type, JackPortIsInput) : nil
        let inRight = options.input ? try register("in_R", cjack_audio_type, JackPortIsInput) : nil
        let midiIn = options.midiInput ? try register("midi_in", cjack_midi_type, JackPortIsInput) : nil

        let events = UnsafeMutablePointer<JACKMIDIEvent>.allocate(capacity: JACKProcess.eventCapacity)
        events.initialize(repeating: JACKMIDIEvent(frame: 0, status: 0, data1: 0, data2: 0, length: 0), count: JACKProcess.eventCapacity)
        state = .allocate(capacity: 1)
        state.initialize(
            to: JACKProcessState(
                outLeft: outLeft, outRight: outRight, inLeft: inLeft, inRight: inRight, midiIn: midiIn, events: events,
                eventCapacity: JACKProcess.eventCapacity, renderer: nil,
                notifications: .passUnretained(notifications)))
        installNotificationCallbacks(client)
        if midiIn != nil { installMIDIConnectionCallback(client) }
    }

    deinit {
        close()
        state.pointee.events.deallocate()
        state.deallocate()
    }

    /// The server's sample rate and buffer size now.
    public var sampleRate: Int { client.map { Int(jack_get_sample_rate($0)) } ?? 0 }
    public var bufferSize: Int { client.map { Int(jack_get_buffer_size($0)) } ?? 0 }

    /// The SCHED_FIFO priority of JACK's process thread for this client; nil when the server does
    /// not run its clients in real time.
    public var processThreadPriority: Int32? {
        guard let client, jack_is_realtime(client) != 0 else { return nil }
        let priority = jack_client_real_time_priority(client)
        return priority > 0 ? priority : nil
    }

    /// Full names of this client's ports, e.g. `AudioGraph:out_L`.
    public var outputPortNames: [String] { ["\(name):out_L", "\(name):out_R"] }
    public var inputPortNames: [String] { options.input ? ["\(name):in_L", "\(name):in_R"] : [] }
    /// `NAME:midi_in` when the client has a MIDI in port.
    public var midiInputPortName: String? { options.midiInput ? "\(name):midi_in" : nil }

    /// Frames between a sample written in the process callback and the output of the ports it
    /// is connected to (JACK's playback latency range, maximum), plus one buffer for the cycle
    /// itself; the buffer alone when nothing is connected.
    public var outputLatencyFrames: Int {
        guard let client else { return 0 }
        var range = jack_latency_range_t()
        jack_port_get_latency_range(state.pointee.outLeft, JackPlaybackLatency, &range)
        return Int(range.max) + Int(jack_get_buffer_size(client))
    }

    /// Starts the process callback: `renderer` is called once per cycle from JACK's thread.
    public func activate(_ renderer: JACKRenderer) throws(JACKError) {
        guard let client, !active else { return }
        state.pointee.renderer = renderer
        guard jack_set_process_callback(client, JACKProcess.callback, UnsafeMutableRawPointer(state)) == 0,
              jack_activate(client) == 0
        else {
            throw JACKError(operation: "jack_activate(\"\(name)\")", reason: "the server refused to activate the client")
        }
        active = true
    }

    /// Stops the process callback (the renderer is not called after this returns).
    public func deactivate() {
        guard let client, active else { return }
        jack_deactivate(client)
        active = false
    }

    /// Leaves the graph and lets go of the server. Idempotent; also after a shutdown.
    public func close() {
        guard let client else { return }
        if active && !notifications.shutDown.load(ordering: .acquiring) { jack_deactivate(client) }
        active = false
        jack_client_close(client)
        self.client = nil
    }

    /// Connects `out_L`/`out_R` (and nothing else) to `destinations`, in order; returns what
    /// failed, in words (an empty list when everything connected).
    @discardableResult
    public func connectOutputs(to destinations: [String]) -> [String] {
        guard let client else { return ["no JACK client"] }
        var failures: [String] = []
        for (source, destination) in zip(outputPortNames, destinations) {
            let result = jack_connect(client, source, destination)
            if result != 0 && result != EEXIST {
                failures.append("cannot connect \(source) to \(destination) (\(result))")
            }
        }
        return failures
    }

    /// Connects every port in `sources` to the MIDI in port; returns what failed, in words.
    @discardableResult
    public func connectMIDIInput(from sources: [String]) -> [String] {
        guard let client, let destination = midiInputPortName else { return ["no JACK MIDI in port"] }
        return sources.compactMap { source in
            let result = jack_connect(client, source, destination)
            return result == 0 || result == EEXIST ? nil : "cannot connect \(source) to \(destination) (\(result))"
        }
    }

    /// The server's physical MIDI sources ("system:midi_capture_1", …: keyboards, interfaces).
    public func physicalMIDISources() -> [String] {
        guard let client else { return [] }
        return Self.portNames(client, type: cjack_midi_type, flags: JackPortIsPhysical.rawValue | JackPortIsOutput.rawValue)
    }

    /// The server's physical playback ports ("system:playback_1", …), in order.
    public func physicalPlaybackPorts() -> [String] {
        guard let client else { return [] }
        return Self.portNames(client, type: cjack_audio_type, flags: JackPortIsPhysical.rawValue | JackPortIsInput.rawValue)
    }

    static func portNames(_ client: OpaquePointer, type: UnsafePointer<CChar>?, flags: UInt32) -> [String] {
        guard let list = jack_get_ports(client, nil, type, UInt(flags)) else { return [] }
        defer { jack_free(UnsafeMutableRawPointer(list)) }
        var names: [String] = []
        var index = 0
        while let name = list[index] {
            names.append(String(cString: name))
            index += 1
        }
        return names
    }

    /// Keeps `notifications.midiSources` at the number of ports connected to the MIDI in port, so
    /// the renderer can release the notes its sources held when the last one leaves.
    private func installMIDIConnectionCallback(_ client: OpaquePointer) {
        jack_set_port_connect_callback(
            client,
            { _, _, _, argument in
                guard let argument else { return }
                let state = argument.assumingMemoryBound(to: JACKProcessState.self).pointee
                guard let port = state.midiIn else { return }
                let count = Int(jack_port_connected(port))
                state.notifications._withUnsafeGuaranteedRef { $0.midiSources.store(count, ordering: .relaxed) }
            }, UnsafeMutableRawPointer(state))
    }

    private func installNotificationCallbacks(_ client: OpaquePointer) {
        let context = Unmanaged.passUnretained(notifications).toOpaque()
        jack_set_buffer_size_callback(
            client,
            { frames, argument in
                JACKNotifications.registered(argument)?.bufferSize.store(Int(frames), ordering: .relaxed)
                return 0
            }, context)
        jack_set_sample_rate_callback(
            client,
            { rate, argument in
                JACKNotifications.registered(argument)?.sampleRate.store(Int(rate), ordering: .relaxed)
                return 0
            }, context)
        jack_set_xrun_callback(
            client,
            { argument in
                JACKNotifications.registered(argument)?.xruns.wrappingAdd(1, ordering: .relaxed)
                return 0
            }, context)
        jack_on_info_shutdown(
            client,
            { _, reason, argument in
                JACKNotifications.registered(argument)?.recordShutdown(reason.map { String(cString: $0) } ?? "the server went away")
            }, context)
    }
}

extension JACKNotifications {
    /// The notifications a callback was installed with (its `context`, passed unretained: the
    /// client keeps them alive while callbacks can run).
    fileprivate static func registered(_ argument: UnsafeMutableRawPointer?) -> JACKNotifications? {
        argument.map { Unmanaged<JACKNotifications>.fromOpaque($0).takeUnretainedValue() }
    }
}
