/// Which sequencer ports the client subscribes to by itself, at start and whenever a port
/// appears. A port qualifies when it is a readable MIDI source (READ + SUBS_READ and a MIDI
/// type bit; no HARDWARE/APPLICATION bit is required, since rtpmidid's session ports are
/// plain MIDI_GENERIC), is exported (not NO_EXPORT), is not the System client or our own
/// client, matches an include pattern (none = everything) and matches no exclude pattern.
///
/// Patterns are case-insensitive substrings of `client name:port name`, so `Midi Through`
/// matches the kernel's through port, `rtpmidid:Network` rtpmidid's merged export port and
/// `:Announcements` a port of that name in any client.
public struct AutoconnectPolicy: Sendable, Equatable {
    public var includePatterns: [String]
    public var excludePatterns: [String]

    /// Midi Through echoes what others send (a feedback loop for anyone also writing to it);
    /// rtpmidid's `Network` port merges its session ports we already connect one by one.
    public static let defaultExcludePatterns = ["Midi Through", "rtpmidid:Network", ":Announcements"]

    public init(includePatterns: [String] = [], excludePatterns: [String] = AutoconnectPolicy.defaultExcludePatterns) {
        self.includePatterns = includePatterns
        self.excludePatterns = excludePatterns
    }

    /// Whether to connect `port` to our input, our own client being `ownClient`. Pure; any thread.
    public func accepts(_ port: SequencerPortInfo, ownClient: Int) -> Bool {
        guard port.client != Self.systemClient, port.client != ownClient,
            port.isReadableSource, port.isExported, port.isMIDI
        else { return false }
        let fullName = port.clientName + ":" + port.portName
        if excludePatterns.contains(where: { NameMatch.score(fullName, $0) != NameMatch.none }) { return false }
        if includePatterns.isEmpty { return true }
        return includePatterns.contains { NameMatch.score(fullName, $0) != NameMatch.none }
    }

    static let systemClient = 0
}
