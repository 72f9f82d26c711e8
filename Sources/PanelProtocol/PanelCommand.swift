import Foundation

/// A message from the page, validated: nothing reaches the instrument before all of it checked out.
///
///     {"type": "set", "name": "bus.mic.gain", "value": -6}
///     {"type": "note", "note": 60, "velocity": 100, "channel": 1}     velocity 0 = note off
///     {"type": "panic"}
///
/// Anything else (malformed JSON, unknown type or key, unknown parameter, a value out of range, a
/// message over `maxBytes`) is refused with one line saying why.
public enum PanelCommand: Equatable, Sendable {
    case set(name: String, value: Double)
    /// Channel 0–15, note 0–127, velocity 0–127 (0 = off).
    case note(channel: Int, note: Int, velocity: Int)
    case panic

    /// The largest message the page ever sends is under 200 bytes.
    public static let maxBytes = 512

    public init(parsing bytes: some Collection<UInt8>, parameters: [String: PanelParameter]) throws(PanelError) {
        guard bytes.count <= Self.maxBytes else {
            throw PanelError("message of \(bytes.count) bytes refused (at most \(Self.maxBytes))")
        }
        let value: JSONValue
        do { value = try JSONDecoder().decode(JSONValue.self, from: Data(bytes)) } catch {
            throw PanelError("message is not JSON: \(PanelError.excerpt(String(decoding: bytes, as: UTF8.self)))")
        }
        guard case .object(let fields) = value else { throw PanelError("message must be a JSON object, got \(value.kindName)") }
        guard case .string(let type)? = fields["type"] else { throw PanelError("message needs \"type\": \"set\", \"note\" or \"panic\"") }
        let message = Fields(fields: fields, type: type)
        switch type {
        case "set":
            try message.allow(["name", "value"])
            let name = try message.string("name")
            guard let parameter = parameters[name] else { throw PanelError("unknown parameter '\(PanelError.excerpt(name))'") }
            self = .set(name: name, value: try parameter.validate(try message.number("value")))
        case "note":
            try message.allow(["note", "velocity", "channel"])
            let channel = try message.integer("channel", in: 1...16, default: 1)
            self = .note(channel: channel - 1, note: try message.integer("note", in: 0...127), velocity: try message.integer("velocity", in: 0...127))
        case "panic":
            try message.allow([])
            self = .panic
        default:
            throw PanelError("unknown message type '\(PanelError.excerpt(type))' (set, note, panic)")
        }
    }

    /// The fields of one message, read with errors that name the message type and the key.
    private struct Fields {
        let fields: [String: JSONValue]
        let type: String

        func allow(_ keys: Set<String>) throws(PanelError) {
            if let extra = fields.keys.sorted().first(where: { $0 != "type" && !keys.contains($0) }) {
                throw PanelError("\(type): unknown key '\(PanelError.excerpt(extra))'")
            }
        }

        func string(_ key: String) throws(PanelError) -> String {
            guard case .string(let s)? = fields[key] else { throw PanelError("\(type) needs \"\(key)\" as text") }
            return s
        }

        func number(_ key: String) throws(PanelError) -> Double {
            switch fields[key] {
            case .number(let n)?: return n
            case let other?: throw PanelError("\(type): \"\(key)\" must be a number, got \(other.kindName)")
            case nil: throw PanelError("\(type) needs \"\(key)\"")
            }
        }

        func integer(_ key: String, in range: ClosedRange<Int>, default fallback: Int? = nil) throws(PanelError) -> Int {
            if fields[key] == nil, let fallback { return fallback }
            let n = try number(key)
            guard n == n.rounded(), n >= Double(range.lowerBound), n <= Double(range.upperBound) else {
                throw PanelError("\(type): \"\(key)\" must be a whole number \(range.lowerBound)–\(range.upperBound)")
            }
            return Int(n)
        }
    }
}
