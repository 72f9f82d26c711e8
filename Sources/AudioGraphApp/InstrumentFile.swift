import FileAccess
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
            else if let s = try? c.decode(String.self) { self = .text(s) }
            else {
                // Also what a number beyond Double's range (1e400) ends up as.
                throw DecodingError.typeMismatch(
                    Double.self, .init(codingPath: c.codingPath, debugDescription: "expected a finite number (at most ±1.8e308), true/false or a word"))
            }
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
            case .number(let d): d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
            case .text(let s): s
            }
        }
    }

    /// Instrument files are a few kB; a larger one is refused before it is read.
    public static let maxFileBytes = 1 << 20

    /// Reads and decodes an instrument file; errors name the file and what is wrong (with the line
    /// and column of a JSON syntax error).
    public static func load(path: String) throws(InstrumentError) -> InstrumentFile {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, maxBytes: maxFileBytes, what: "instrument file")
        } catch {
            throw InstrumentError("cannot read instrument file \(error)")
        }
        return try decode(bytes, path: path)
    }

    /// Decodes instrument-file bytes; `path` names the file in the messages.
    public static func decode(_ bytes: [UInt8], path: String) throws(InstrumentError) -> InstrumentFile {
        do {
            return try JSONDecoder().decode(InstrumentFile.self, from: Data(bytes))
        } catch let DecodingError.dataCorrupted(context) {
            throw InstrumentError("\(path): not valid JSON\(syntaxLocation(in: bytes)): \(context.debugDescription)")
        } catch let DecodingError.keyNotFound(key, _) {
            throw InstrumentError("\(path): missing key '\(key.stringValue)'")
        } catch let DecodingError.typeMismatch(_, context) {
            throw InstrumentError("\(path): wrong type at \(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)")
        } catch {
            throw InstrumentError("\(path): \(error)")
        }
    }
}

/// Where a JSON syntax error is: JSONDecoder only says "not valid JSON", but JSONSerialization
/// names the character ("Invalid value around character 47."), turned here into line and column.
private func syntaxLocation(in bytes: [UInt8]) -> String {
    do {
        _ = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        return ""
    } catch {
        let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
        guard let range = text.range(of: "character "),
            let index = Int(text[range.upperBound...].prefix { $0.isNumber }), index <= bytes.count
        else { return text.isEmpty ? "" : " (\(text.prefix(200)))" }
        let before = bytes[..<index]
        let line = before.count { $0 == UInt8(ascii: "\n") } + 1
        let column = index - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
        return " at line \(line), column \(column) (\(text.prefix(200)))"
    }
}

public struct InstrumentError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
