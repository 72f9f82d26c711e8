/// Which sequencer ports the client subscribes to by itself, at start and whenever a port
/// appears, and why (`AutoconnectDecision`, one log line per port).
///
/// Every rule names what it means by something the port's *owner* controls — client number,
/// client type, capability bits, exact names of ports rtpmidid itself creates — never by a
/// substring of a name, because rtpmidid names each session port after whatever the remote
/// end sends (a remote whose first subscriber was its Midi Through port shows up here as
/// `rtpmidid:Midi Through-Midi Through Port-0`).
///
/// Taken by default: readable, exported MIDI ports of local clients — hardware (USB/PCI MIDI)
/// and software (VirMIDI, a sequencer, a DAW). Skipped:
/// - the System client and our own client (by number);
/// - ports marked NO_EXPORT (e.g. rtpmidid's private `Announcements` port) and non-MIDI ports;
/// - the kernel's Midi Through client (a kernel client named exactly `Midi Through`): it
///   echoes what others send into it, a feedback loop for anyone also writing to it;
/// - rtpmidid's export port (exactly `Network Export`, or `Network` in older versions, on an
///   rtpmidid client): subscribing to it makes rtpmidid publish a new service on the LAN;
/// - every other port of an rtpmidid client (a network peer) unless included: rtpmidid gives
///   an incoming session and a remote it merely discovered on the LAN the same kind of port
///   (same capability and type bits, both named by the remote), and subscribing to the
///   latter makes rtpmidid dial that remote. Only the user can say which are wanted.
///
/// `includes` take ports the default skips (network peers, Midi Through); `excludes` drop
/// ports the default takes. Excludes win. See `AutoconnectPattern` for the syntax.
import MemberwiseInit

@PublicInit
public struct AutoconnectPolicy: Sendable, Equatable {
    public var includes: [AutoconnectPattern] = []
    public var excludes: [AutoconnectPattern] = []

    /// Parses pattern texts (see `AutoconnectPattern`); throws naming the bad one.
    public init(including: [String], excluding: [String]) throws(ALSAError) {
        var includes: [AutoconnectPattern] = []
        var excludes: [AutoconnectPattern] = []
        for text in including { includes.append(try AutoconnectPattern(parsing: text)) }
        for text in excluding { excludes.append(try AutoconnectPattern(parsing: text)) }
        self.init(includes: includes, excludes: excludes)
    }

    /// The verdict on `port`, given every port of the system (`allPorts`, to recognise an
    /// rtpmidid client by its private port) and our own client number. Nil for ports that are
    /// not readable MIDI sources at all (a write-only port, a sender's output): not
    /// candidates, not worth a log line. Pure; any thread.
    public func decide(_ port: SequencerPortInfo, among allPorts: [SequencerPortInfo], ownClient: Int)
        -> AutoconnectDecision?
    {
        guard port.isReadableSource else { return nil }
        func verdict(_ take: Bool, _ reason: AutoconnectDecision.Reason) -> AutoconnectDecision {
            AutoconnectDecision(port: port, take: take, reason: reason)
        }
        if port.client == Self.systemClient { return verdict(false, .systemClient) }
        if port.client == ownClient { return verdict(false, .ownClient) }
        let bridge = RtpmididClient.isBridge(client: port.client, clientName: port.clientName, among: allPorts)
        if !port.isExported { return verdict(false, bridge ? .rtpmididPrivate : .notExported) }
        if !port.isMIDI { return verdict(false, .notMIDI) }
        if let pattern = excludes.first(where: { $0.match(port) != nil }) { return verdict(false, .excluded(pattern)) }
        let include = includes.lazy.compactMap { pattern in pattern.match(port).map { (pattern, $0) } }.first
        if bridge && RtpmididClient.exportPortNames.contains(port.portName) {
            // A whole-client include means "its sessions"; only naming the port itself takes this one.
            if let (pattern, kind) = include, kind == .port { return verdict(true, .included(pattern)) }
            return verdict(false, .rtpmididExport)
        }
        if let (pattern, _) = include { return verdict(true, .included(pattern)) }
        if port.isKernelMidiThrough { return verdict(false, .kernelMidiThrough) }
        if bridge { return verdict(false, .networkPeer) }
        return verdict(true, port.types & SequencerPortType.hardware != 0 ? .hardware : .localSource)
    }

    static let systemClient = 0
}

/// How rtpmidid (the RTP-MIDI/AppleMIDI bridge) shows in the sequencer: recognised by what its
/// own process sets — its client name (its `alsa_name`, `rtpmidid` by default; several
/// instances are usually `rtpmidid-A`, `rtpmidid-B`…) or its private `Announcements` port
/// (NO_EXPORT, which no remote can set) — never by a port name a remote chose.
public enum RtpmididClient {
    public static let defaultClientName = "rtpmidid"
    /// Its private port subscribed to System:Announce (capability NO_EXPORT).
    public static let privatePortName = "Announcements"
    /// The port a local output connects to for rtpmidid to export it (`Network` before v23).
    public static let exportPortNames: Set<String> = ["Network Export", "Network"]

    static func isBridge(client: Int, clientName: String, among allPorts: [SequencerPortInfo]) -> Bool {
        if clientName.hasPrefix(defaultClientName) { return true }
        return allPorts.contains { $0.client == client && !$0.isExported && $0.portName == privatePortName }
    }
}

/// A port or client named for `--autoconnect-include/-exclude`, matched exactly (case and all;
/// never as a substring):
/// - `CLIENT:PORT` — exact client name and port name, e.g. `rtpmidid:Studio Mac`;
/// - `CLIENT` — every port of the client with exactly that name, e.g. `rtpmidid`;
/// - `N:M` or `N` — client (and port) numbers, as `aconnect -l` prints them.
/// Names may themselves contain `:` — the whole text is compared with `client` and with
/// `client:port`, so `rtpmidid:Midi Through-Midi Through Port-0` works as written.
public struct AutoconnectPattern: Sendable, Equatable, CustomStringConvertible {
    public enum Match: Sendable, Equatable {
        /// The pattern names the client (all its ports).
        case client
        /// The pattern names this very port.
        case port
    }

    public let text: String
    private let numbers: (client: Int, port: Int?)?

    public init(parsing text: String) throws(ALSAError) {
        guard !text.isEmpty, text.trimmingSpaces == text else {
            throw ALSAError(
                operation: "parsing autoconnect pattern \"\(text)\"", code: 0,
                detail: "expected CLIENT, CLIENT:PORT, N or N:M (exact names, no surrounding spaces)")
        }
        self.text = text
        let sides = text.split(separator: ":", omittingEmptySubsequences: false)
        if sides.count <= 2, let client = Int(sides[0]), client >= 0 {
            if sides.count == 1 {
                numbers = (client, nil)
            } else if let port = Int(sides[1]), port >= 0 {
                numbers = (client, port)
            } else {
                numbers = nil
            }
        } else {
            numbers = nil
        }
    }

    /// How this pattern names `port`, or nil if it does not.
    public func match(_ port: SequencerPortInfo) -> Match? {
        if let numbers {
            guard numbers.client == port.client else { return nil }
            guard let wanted = numbers.port else { return .client }
            return wanted == port.port ? .port : nil
        }
        if text == port.clientName + ":" + port.portName { return .port }
        return text == port.clientName ? .client : nil
    }

    public var description: String { text }

    public static func == (a: AutoconnectPattern, b: AutoconnectPattern) -> Bool { a.text == b.text }
}

/// One autoconnect verdict, as `play` logs it:
/// `take 131:2 'rtpmidid:Midi Through-Midi Through Port-0' (included by 'rtpmidid')`.
public struct AutoconnectDecision: Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        case hardware, localSource, included(AutoconnectPattern)
        case systemClient, ownClient, notExported, notMIDI, excluded(AutoconnectPattern)
        case kernelMidiThrough, rtpmididPrivate, rtpmididExport, networkPeer

        var text: String {
            switch self {
            case .hardware: "hardware MIDI port"
            case .localSource: "local MIDI source"
            case .included(let pattern): "included by '\(pattern)'"
            case .systemClient: "System client"
            case .ownClient: "our own client"
            case .notExported: "not exported: NO_EXPORT"
            case .notMIDI: "not a MIDI port"
            case .excluded(let pattern): "excluded by '\(pattern)'"
            case .kernelMidiThrough: "kernel Midi Through client: echoes what others send"
            case .rtpmididPrivate: "rtpmidid's private port: NO_EXPORT"
            case .rtpmididExport: "rtpmidid's export port: subscribing publishes us on the LAN"
            case .networkPeer:
                "rtpmidid peer: an incoming session or a remote only discovered on the LAN, which subscribing would dial;"
                    + " --autoconnect-include to take it"
            }
        }
    }

    public var port: SequencerPortInfo
    public var take: Bool
    public var reason: Reason

    public var description: String {
        "\(take ? "take" : "skip") \(port.client):\(port.port) '\(port.clientName):\(port.portName)' (\(reason.text))"
    }
}
