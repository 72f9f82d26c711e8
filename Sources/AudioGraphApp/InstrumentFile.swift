import Foundation

/// The instrument file (JSON, documented in Instruments/README.md): which preset and loop files,
/// bus levels and every other parameter, master filter settings, MIDI channel routing, control
/// mappings, mic effect defaults and the program list. Relative paths are relative to the file.
public struct InstrumentFile: Codable, Sendable, Equatable {
    public var name: String
    /// The sampler's preset (.aupreset).
    public var preset: String?
    /// Presets that MIDI program changes 0, 1, 2… switch among.
    public var programs: [String]?
    /// The demo song (Standard MIDI File) that `render` and `play --demo` use by default.
    public var demo: String?
    /// Extra directories to search for samples (AUSampler's `/Sounds/` fallback roots).
    public var samplePaths: [String]?
    /// Loop files by bus: `guitar`, `beat`, `file`.
    public var loops: [String: String]?
    /// 1-based MIDI channels per instrument: `sampler`, `synth`.
    public var channels: [String: [Int]]?
    public var controls: [Control]?
    /// Parameter values by dotted name (see `audiograph params`): numbers, or words for toggles and choices.
    public var parameters: [String: Value]?

    public struct Control: Codable, Sendable, Equatable {
        /// 1-based MIDI channel; absent = any channel.
        public var channel: Int?
        public var cc: Int?
        public var note: Int?
        public var parameter: String
    }

    /// A number or a word.
    public enum Value: Codable, Sendable, Equatable {
        case number(Double)
        case text(String)

        public init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let d = try? c.decode(Double.self) { self = .number(d) }
            else if let b = try? c.decode(Bool.self) { self = .text(b ? "on" : "off") }
            else { self = .text(try c.decode(String.self)) }
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .number(let d): try c.encode(d)
            case .text(let s): try c.encode(s)
            }
        }

        public var text: String {
            switch self {
            case .number(let d): d == d.rounded() ? String(Int(d)) : String(d)
            case .text(let s): s
            }
        }
    }

    /// Reads and decodes an instrument file; errors name the file and what is wrong.
    public static func load(path: String) throws(InstrumentError) -> InstrumentFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InstrumentError("cannot read instrument file \(path)")
        }
        do {
            return try JSONDecoder().decode(InstrumentFile.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw InstrumentError("\(path): not valid JSON: \(context.debugDescription)")
        } catch let DecodingError.keyNotFound(key, _) {
            throw InstrumentError("\(path): missing key '\(key.stringValue)'")
        } catch let DecodingError.typeMismatch(_, context) {
            throw InstrumentError("\(path): wrong type at \(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)")
        } catch {
            throw InstrumentError("\(path): \(error)")
        }
    }
}

public struct InstrumentError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
