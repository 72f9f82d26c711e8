import FileAccess
import Foundation
import MemberwiseInit

/// The instrument file (JSON, documented in Instruments/README.md): which preset and loop files,
/// bus levels and every other parameter, master filter settings, MIDI channel routing, control
/// mappings, mic effect defaults and the program list. Relative paths are relative to the file.
public struct InstrumentFile: Codable, Sendable, Equatable {
    public var name: String
    /// The preset every melodic part starts on (.aupreset), unless `channels.start` says otherwise.
    public var preset: String?
    /// A SoundFont (.sf2, .sf3) whose presets fill every bank first, as FluidSynth would play
    /// them; `programs` and `banks` then replace single entries.
    public var soundfont: String?
    /// Linear gain of every SoundFont voice (FluidSynth's `synth.gain`, 0–10); absent: its default 0.2.
    public var soundfontGain: Double?
    /// The program table of bank 0: General MIDI program numbers → sounds.
    public var programs: ProgramTable?
    /// Further banks (CC0 bank select; 128 = the General MIDI percussion bank drum parts use).
    public var banks: [String: ProgramTable]?
    /// The demo: its song (Standard MIDI File), which `audiograph demo` and `render` without
    /// `--midi` play, and the loops and mappings only it uses.
    public var demo: Demo?
    /// Extra directories to search for samples (AUSampler's `/Sounds/` fallback roots).
    public var samplePaths: [String]?
    /// Loop files by bus: `guitar`, `beat`, `file`.
    public var loops: [String: String]?
    /// Which channels play, which are drum parts, what each starts on.
    public var channels: Channels?
    public var controls: [Control]?
    /// Parameter values by dotted name (see `audiograph params`): numbers, or words for toggles and choices.
    public var parameters: [String: Value]?
    /// `play`'s web panel, `[ADDR:]PORT` as `--panel` takes it (docs/PANEL.md); absent: no panel.
    public var panel: String?

    /// `demo`: a song path, or `{"song": …, "loops": {…}, "controls": […], "start": {…}}` whose loops,
    /// control mappings and channel starts are added only while the demo plays, so they take no
    /// MIDI channel from other songs.
    @PublicInit
    public struct Demo: Codable, Sendable, Equatable {
        public var song: String
        public var loops: [String: String]? = nil
        public var controls: [Control]? = nil
        /// Channel → starting program number, `synth` or `none`, over `channels.start`.
        public var start: [String: Value]? = nil

        enum CodingKeys: String, CodingKey, CaseIterable { case song, loops, controls, start }

        public init(from decoder: Decoder) throws {
            if let song = try? decoder.singleValueContainer().decode(String.self) {
                self.init(song: song)
                return
            }
            let any = try decoder.container(keyedBy: Channels.AnyKey.self)
            for key in any.allKeys where CodingKeys(stringValue: key.stringValue) == nil {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: any, debugDescription: "unknown key '\(key.stringValue)' (use song, loops, controls, start)")
            }
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                song: try c.decode(String.self, forKey: .song), loops: try c.decodeIfPresent([String: String].self, forKey: .loops),
                controls: try c.decodeIfPresent([Control].self, forKey: .controls),
                start: try c.decodeIfPresent([String: Value].self, forKey: .start))
        }
    }

    public struct Control: Codable, Sendable, Equatable {
        /// 1-based MIDI channel; absent = any channel.
        public var channel: Int?
        public var cc: Int?
        public var note: Int?
        public var parameter: String
    }

    /// Program numbers → sounds: `["a.aupreset", "b.aupreset"]` (programs 0, 1, …) or
    /// `{"0-7": "Keys.aupreset", "32": "synth", "33-39": "none"}`. A sound is a preset path,
    /// a SoundFont preset `FILE.sf2#bank:program`, `synth`, `none`, or a preset with settings
    /// (`ProgramEntry`).
    public enum ProgramTable: Codable, Sendable, Equatable {
        case list([ProgramEntry])
        case ranges([String: ProgramEntry])

        public init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            do {
                self = .ranges(try c.decode([String: ProgramEntry].self))
            } catch DecodingError.typeMismatch(_, let context) where context.codingPath.count == c.codingPath.count {
                // Not an object: a list (whose own errors name the entry).
                self = .list(try c.decode([ProgramEntry].self))
            }
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .list(let l): try c.encode(l)
            case .ranges(let r): try c.encode(r)
            }
        }
    }

    /// `channels`: `play` (1-based channels that play; default all 16), `drums` (drum parts;
    /// default [10]), `start` (channel → starting program number, `synth` or `none`). The older
    /// form `{"sampler": [1], "synth": [2]}` still reads: those channels play, the synth ones
    /// start on the synth.
    public struct Channels: Codable, Sendable, Equatable {
        public var play: [Int]?
        public var drums: [Int]?
        public var start: [String: Value]?
        public var sampler: [Int]?
        public var synth: [Int]?

        enum CodingKeys: String, CodingKey, CaseIterable { case play, drums, start, sampler, synth }

        public init(from decoder: Decoder) throws {
            let any = try decoder.container(keyedBy: AnyKey.self)
            for key in any.allKeys where CodingKeys(stringValue: key.stringValue) == nil {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: any, debugDescription: "unknown key '\(key.stringValue)' (use play, drums, start)")
            }
            let c = try decoder.container(keyedBy: CodingKeys.self)
            play = try c.decodeIfPresent([Int].self, forKey: .play)
            drums = try c.decodeIfPresent([Int].self, forKey: .drums)
            start = try c.decodeIfPresent([String: Value].self, forKey: .start)
            sampler = try c.decodeIfPresent([Int].self, forKey: .sampler)
            synth = try c.decodeIfPresent([Int].self, forKey: .synth)
        }

        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
    }

    /// A number or a word.
    public enum Value: Codable, Sendable, Equatable {
        case number(Double)
        case text(String)

        public init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let d = try? c.decode(Double.self) {
                self = .number(d)
            } else if let b = try? c.decode(Bool.self) {
                self = .text(b ? "on" : "off")
            } else if let s = try? c.decode(String.self) {
                self = .text(s)
            } else {
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

    /// An instrument with only a name: every other key absent.
    public init(name: String) { self.name = name }

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
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw InstrumentError("\(path): \(keyPath(context.codingPath)): \(PrintableText.escaped(context.debugDescription))")
        } catch let DecodingError.dataCorrupted(context) {
            throw InstrumentError("\(path): not valid JSON\(syntaxLocation(in: bytes)): \(context.debugDescription)")
        } catch let DecodingError.keyNotFound(key, context) {
            let place = context.codingPath.isEmpty ? "" : keyPath(context.codingPath) + ": "
            throw InstrumentError("\(path): \(place)missing key '\(PrintableText.escaped(key.stringValue))'")
        } catch let DecodingError.typeMismatch(_, context) {
            throw InstrumentError("\(path): wrong type at \(keyPath(context.codingPath)): \(PrintableText.escaped(context.debugDescription))")
        } catch {
            throw InstrumentError("\(path): \(PrintableText.escaped("\(error)"))")
        }
    }

    /// Keys come from the file: shown with control characters escaped (an escape sequence in a key
    /// must not reach the terminal).
    private static func keyPath(_ path: [any CodingKey]) -> String {
        PrintableText.escaped(path.map(\.stringValue).joined(separator: "."))
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
