/// A port named the way `aconnect` accepts it: `client:port` where each side is a number or a
/// name, or a bare client number, client name or port name. Names match case-insensitively;
/// an exact name beats a substring. Examples: `128:0`, `24`, `AudioGraph:MIDI In`,
/// `Virtual Raw MIDI 2-0`, `rtpmidid:iPad`, `MIDI In`.
public struct SequencerPortSpec: Sendable, Equatable, CustomStringConvertible {
    public enum Part: Sendable, Equatable {
        case number(Int)
        case name(String)
    }

    /// The part before the last `:`, or the whole spec when there is no `:`.
    public var clientPart: Part
    /// The part after the last `:`; nil for a bare name/number.
    public var portPart: Part?
    public var text: String

    /// Parses `text`. Throws for an empty spec or an empty side of the `:`.
    public init(parsing text: String) throws(ALSAError) {
        let trimmed = text.trimmingSpaces
        self.text = trimmed
        guard !trimmed.isEmpty else {
            throw ALSAError(operation: "parsing port \"\(text)\"", code: 0, detail: "empty port name")
        }
        if let colon = trimmed.lastIndex(of: ":") {
            let client = String(trimmed[..<colon]).trimmingSpaces
            let port = String(trimmed[trimmed.index(after: colon)...]).trimmingSpaces
            guard !client.isEmpty, !port.isEmpty else {
                throw ALSAError(
                    operation: "parsing port \"\(text)\"", code: 0, detail: "expected CLIENT:PORT with both sides non-empty")
            }
            clientPart = Self.part(client)
            portPart = Self.part(port)
        } else {
            clientPart = Self.part(trimmed)
            portPart = nil
        }
    }

    private static func part(_ text: String) -> Part {
        if let number = Int(text), number >= 0 { return .number(number) }
        return .name(text)
    }

    public var description: String { text }

    /// The port this spec names among `ports`, restricted to those passing `usable`
    /// (e.g. `isReadableSource` to connect from it). Within one client the lowest-numbered
    /// usable port wins, as with `aconnect`. Throws when nothing matches or when a name
    /// matches ports of several clients equally well.
    public func resolve(in ports: [SequencerPortInfo], where usable: (SequencerPortInfo) -> Bool) throws(ALSAError)
        -> SequencerPortInfo
    {
        let candidates = ports.filter { usable($0) && $0.isExported }
        var scored: [(port: SequencerPortInfo, score: Int)] = []
        for port in candidates {
            let score: Int
            switch (clientPart, portPart) {
            case (.number(let client), nil):
                score = port.client == client ? NameMatch.exact : NameMatch.none
            case (.name(let name), nil):
                // A bare name may be a client or a port name.
                score = max(NameMatch.score(port.clientName, name), NameMatch.score(port.portName, name))
            case (let client, let portSide?):
                score = min(Self.score(client, port.client, port.clientName), Self.score(portSide, port.port, port.portName))
            }
            if score > NameMatch.none { scored.append((port, score)) }
        }
        guard let best = scored.map(\.score).max() else {
            throw ALSAError(
                operation: "finding sequencer port \"\(text)\"", code: 0,
                detail: "no such port (available: "
                    + candidates.map { "\($0.client):\($0.port) '\($0.clientName):\($0.portName)'" }.joined(separator: ", ") + ")")
        }
        let winners = scored.filter { $0.score == best }.map(\.port)
        let clients = Set(winners.map(\.client))
        guard clients.count == 1, let first = winners.min(by: { $0.port < $1.port }) else {
            throw ALSAError(
                operation: "finding sequencer port \"\(text)\"", code: 0,
                detail: "ambiguous: matches " + winners.map { "\($0.client):\($0.port) '\($0.clientName):\($0.portName)'" }
                    .joined(separator: ", "))
        }
        return first
    }

    private static func score(_ part: Part, _ number: Int, _ name: String) -> Int {
        switch part {
        case .number(let wanted): return wanted == number ? NameMatch.exact : NameMatch.none
        case .name(let wanted): return NameMatch.score(name, wanted)
        }
    }
}

/// Case-insensitive name matching for port specs (`--connect`: the user names one port to connect now;
/// autoconnect patterns match exactly instead, see `AutoconnectPattern`).
enum NameMatch {
    static let none = 0
    static let substring = 1
    static let exact = 2

    static func score(_ candidate: String, _ pattern: String) -> Int {
        let candidate = candidate.lowercased()
        let pattern = pattern.lowercased()
        if candidate == pattern { return exact }
        return candidate.contains(pattern) ? substring : none
    }
}

extension String {
    var trimmingSpaces: String {
        var slice = Substring(self)
        while slice.first?.isWhitespace == true { slice.removeFirst() }
        while slice.last?.isWhitespace == true { slice.removeLast() }
        return String(slice)
    }
}
