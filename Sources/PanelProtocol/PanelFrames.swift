import Foundation

/// What the server sends the page, as JSON text: `hello` once (the parameters and limits), `state`
/// at the feed rate, `error` when a message was refused.
public enum PanelFrames {
    /// Frames per second of `state` to every open page (meters, pitch): at least 20.
    public static let feedRate = 25

    public static func hello(parameters: [PanelParameter], rate: Int = feedRate) -> String {
        encode(Hello(parameters: parameters, feedRate: rate, maxMessageBytes: PanelCommand.maxBytes,
                     messagesPerSecond: PanelClient.messagesPerSecond))
    }

    public static func state(_ state: PanelState) -> String { encode(StateFrame(state: state)) }

    public static func error(_ message: String) -> String { encode(ErrorFrame(message: message)) }

    private struct Hello: Encodable {
        var type = "hello"
        var parameters: [PanelParameter]
        var feedRate: Int
        var maxMessageBytes: Int
        var messagesPerSecond: Double
    }

    private struct StateFrame: Encodable {
        var type = "state"
        var state: PanelState
    }

    private struct ErrorFrame: Encodable {
        var type = "error"
        var message: String
    }

    private static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        guard let data = try? encoder.encode(value) else { return #"{"type":"error","message":"state could not be encoded"}"# }
        return String(decoding: data, as: UTF8.self)
    }
}

/// One open page: its messages are rate-limited, validated, then applied through the backend.
/// Refusals come back as `error` frames, at most `errorsPerSecond`, so a flood cannot make the
/// server flood back.
public struct PanelClient: Sendable {
    public static let messagesPerSecond = 60.0
    public static let messageBurst = 120.0
    static let errorsPerSecond = 2.0

    private var messages = RateLimiter(perSecond: Self.messagesPerSecond, burst: Self.messageBurst)
    private var errors = RateLimiter(perSecond: Self.errorsPerSecond, burst: 4)
    /// Messages refused so far (any reason).
    public private(set) var refused = 0
    public private(set) var applied = 0

    public init() {}

    /// Handles one message at `now` (monotonic ns); returns the frame to send back, if any.
    public mutating func receive(_ bytes: some Collection<UInt8>, backend: some PanelBackend, parameters: [String: PanelParameter], now: UInt64) -> String? {
        do throws(PanelError) {
            guard messages.allow(now: now) else {
                throw PanelError("too many messages (more than \(Int(Self.messagesPerSecond)) a second); this one was not applied")
            }
            switch try PanelCommand(parsing: bytes, parameters: parameters) {
            case .set(let name, let value): try backend.set(name, value: value)
            case .note(let channel, let note, let velocity): try backend.note(channel: channel, note: note, velocity: velocity)
            case .panic: try backend.panic()
            }
            applied += 1
            return nil
        } catch {
            refused += 1
            return errors.allow(now: now) ? PanelFrames.error(error.description) : nil
        }
    }
}
