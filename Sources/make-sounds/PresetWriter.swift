import AudioFiles
import Glibc

/// A property-list value, written the way AU Lab saves an `.aupreset`: XML plist 1.0, tab
/// indentation, dictionary keys sorted by byte value, whole numbers in `<real>` without a fraction.
indirect enum PlistValue {
    case dict([String: PlistValue])
    case array([PlistValue])
    case string(String)
    case integer(Int)
    case real(Double)
    case bool(Bool)
    case data([UInt8])

    /// The whole document, ending in a newline.
    func document() -> String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">"#,
            #"<plist version="1.0">"#,
        ]
        append(to: &lines, indent: "")
        lines.append("</plist>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Appends this value's lines at `indent` (a dictionary's value sits at its key's indent).
    private func append(to lines: inout [String], indent: String) {
        switch self {
        case .dict(let entries) where entries.isEmpty: lines.append(indent + "<dict/>")
        case .dict(let entries):
            lines.append(indent + "<dict>")
            for key in entries.keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
                lines.append(indent + "\t<key>\(Self.escaped(key))</key>")
                entries[key]!.append(to: &lines, indent: indent + "\t")
            }
            lines.append(indent + "</dict>")
        case .array(let items) where items.isEmpty: lines.append(indent + "<array/>")
        case .array(let items):
            lines.append(indent + "<array>")
            for item in items { item.append(to: &lines, indent: indent + "\t") }
            lines.append(indent + "</array>")
        case .string(let text): lines.append(indent + "<string>\(Self.escaped(text))</string>")
        case .integer(let value): lines.append(indent + "<integer>\(value)</integer>")
        case .real(let value):
            let text = value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
            lines.append(indent + "<real>\(text)</real>")
        case .bool(let value): lines.append(indent + (value ? "<true/>" : "<false/>"))
        case .data(let bytes): lines += [indent + "<data>", indent + base64(bytes), indent + "</data>"]
        }
    }

    private static func escaped(_ text: String) -> String {
        text.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;").replacingAll(">", with: "&gt;")
    }
}

extension String {
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }
}

/// Standard base64 with `=` padding, on one line.
func base64(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    var text = ""
    for start in stride(from: 0, to: bytes.count, by: 3) {
        let chunk = Array(bytes[start..<min(start + 3, bytes.count)])
        let value = chunk.enumerated().reduce(0) { $0 | Int($1.element) << (16 - 8 * $1.offset) }
        for index in 0..<4 {
            text.append(index <= chunk.count ? alphabet[(value >> (18 - 6 * index)) & 63] : "=")
        }
    }
    return text
}

/// A one-layer AUSampler preset over samples in `Sounds/`, referenced by a Mac path that resolves
/// through AUSampler's `/Sounds/` fallback (as `Keys.aupreset` does).
struct SamplerPresetSpec {
    struct Envelope {
        var attack = 0.0, decay = 0.0, sustain = 1.0, release = 0.2
    }

    struct ZoneSpec {
        /// Path under `Sounds/`, e.g. "Bass/bass-31.wav".
        var sample: String
        var rootKey: Int
        var keys: ClosedRange<Int>
        var velocities: ClosedRange<Int> = 0...127
        var loop = false
        var gainDecibels = 0.0
    }

    var name: String
    var envelope: Envelope
    var zones: [ZoneSpec]
    /// Layer gain, dB (written only when not 0).
    var gainDecibels = 0.0
    /// `trigger mode` 11: notes play to the end of their sample, note-off is ignored.
    var oneShot = false

    static let referencePrefix = "/Users/someone/Music/Sounds/"

    func write(to path: String) throws(AudioFileError) {
        let text = plist().document()
        guard let file = fopen(path, "w") else { throw AudioFileError(path: path, reason: "cannot create the file") }
        defer { fclose(file) }
        guard fputs(text, file) >= 0 else { throw AudioFileError(path: path, reason: "write failed") }
    }

    func plist() -> PlistValue {
        // Each distinct sample is one waveform ID, numbered in order of first use.
        var waveforms: [String: Int] = [:]
        var references: [String: PlistValue] = [:]
        var zoneValues: [PlistValue] = []
        for (index, zone) in zones.enumerated() {
            let waveform = waveforms[zone.sample] ?? waveforms.count + 1
            if waveforms[zone.sample] == nil {
                waveforms[zone.sample] = waveform
                references["Sample:\(waveform)"] = .string(Self.referencePrefix + zone.sample)
            }
            var entries: [String: PlistValue] = [
                "ID": .integer(index + 1), "enabled": .bool(true), "loop enabled": .bool(zone.loop),
                "min key": .integer(zone.keys.lowerBound), "max key": .integer(zone.keys.upperBound),
                "min vel": .integer(zone.velocities.lowerBound), "max vel": .integer(zone.velocities.upperBound),
                "name": .string(String(zone.sample.split(separator: "/").last ?? "")), "output": .integer(0),
                "root key": .integer(zone.rootKey), "waveform": .integer(waveform),
            ]
            if zone.gainDecibels != 0 { entries["gain"] = .real(zone.gainDecibels) }
            zoneValues.append(.dict(entries))
        }
        var layer: [String: PlistValue] = [
            "Amplifier": .dict(["ID": .integer(0), "enabled": .bool(true)]),
            "Envelopes": .array([.dict(["ID": .integer(0), "Stages": .array(stages()), "enabled": .bool(true)])]),
            "Filters": .dict([
                "ID": .integer(0), "cutoff": .real(20000), "enabled": .bool(false), "resonance": .real(0),
            ]),
            "ID": .integer(0),
            "LFOs": .array([.dict(["ID": .integer(0), "enabled": .bool(true)])]),
            "Oscillator": .dict(["ID": .integer(0), "enabled": .bool(true)]),
            "Zones": .array(zoneValues),
        ]
        if gainDecibels != 0 { layer["gain"] = .real(gainDecibels) }
        if oneShot { layer["trigger mode"] = .integer(11) }
        return .dict([
            "AU version": .real(1),
            "Instrument": .dict(["Layers": .array([.dict(layer)]), "name": .string(name)]),
            "coarse tune": .integer(0), "data": .data(Self.globalParameterState), "file-references": .dict(references),
            "fine tune": .real(0), "gain": .real(0), "manufacturer": .integer(1_634_758_764), "name": .string(name),
            "output": .integer(0), "pan": .real(0), "subtype": .integer(1_935_764_848), "type": .integer(1_635_085_685),
            "version": .integer(0), "voice count": .integer(64),
        ])
    }

    /// Amp envelope stages 0–6 as AU Lab stores them (curve 22 on the attack, 20 elsewhere).
    private func stages() -> [PlistValue] {
        func stage(_ number: Int, _ seconds: Double, curve: Int = 20) -> PlistValue {
            .dict(["curve": .integer(curve), "stage": .integer(number), "time": .real(seconds)])
        }
        return [
            stage(0, 0), stage(1, envelope.attack, curve: 22), stage(2, 0), stage(3, envelope.decay),
            .dict(["level": .real(envelope.sustain), "stage": .integer(4)]), stage(5, envelope.release),
            stage(6, Double(Float(0.005))),
        ]
    }

    /// The `data` blob: scope 0, element 0, 4 parameters (900 gain, 901 coarse, 902 fine, 903 pan),
    /// all 0, big-endian — what AU Lab writes for untouched globals.
    static let globalParameterState: [UInt8] = {
        func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        var bytes = bigEndian(0) + bigEndian(0) + bigEndian(4)
        for id: UInt32 in 900...903 { bytes += bigEndian(id) + bigEndian(Float(0).bitPattern) }
        return bytes
    }()
}
