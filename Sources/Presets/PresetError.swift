/// Why a preset (or property list) could not be loaded. Every case names the file and says what
/// was expected and where, so the message can be shown to a musician as is.
public enum PresetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or read (`reason` is the `strerror` text).
    case unreadable(path: String, reason: String)
    /// A binary property list (`bplist00`); only XML plists are supported.
    case binaryPropertyList(path: String)
    /// The bytes are not XML at all (or are XML libxml2 rejected: `line` is 1-based, 0 if unknown).
    case malformedXML(path: String, line: Int, message: String)
    /// Well-formed XML, but not an Apple property list (wrong root element or plist structure).
    case notAPropertyList(path: String, location: String, message: String)
    /// A value has the wrong type or an impossible value; `keyPath` is e.g.
    /// `Instrument.Layers[0].Zones[2].root key`.
    case invalidValue(path: String, keyPath: String, expected: String, found: String)
    /// A valid `.aupreset` of some other audio unit (e.g. an effect): it has no `Instrument`.
    case notASamplerPreset(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "\(path): cannot read the file: \(reason)"
        case .binaryPropertyList(let path):
            return "\(path): binary property list (bplist00) is not supported; "
                + "convert it to XML (e.g. `plutil -convert xml1` on a Mac)"
        case .malformedXML(let path, let line, let message):
            let place = line > 0 ? " at line \(line)" : ""
            return "\(path): not well-formed XML\(place): \(message)"
        case .notAPropertyList(let path, let location, let message):
            return "\(path): not an XML property list (\(location)): \(message)"
        case .invalidValue(let path, let keyPath, let expected, let found):
            return "\(path): \(keyPath): expected \(expected), found \(found)"
        case .notASamplerPreset(let path, let reason):
            return "\(path): not an AUSampler preset: \(reason)"
        }
    }
}
