import FileAccess
import MemberwiseInit

/// Why a SoundFont could not be read: the file, the chunk and byte offset where reading stopped
/// (when they apply) and the reason, as one line ready to show a user, e.g.
/// `FluidR3_GM.sf2: pdta/pgen at byte 148270012: 10 bytes is not a whole number of 4-byte records`.
@PublicInit
public struct SoundFontError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    /// The chunk being read, as `LIST/id` ("pdta/pgen", "INFO/ifil", "RIFF"), or nil for the file itself.
    public var chunk: String? = nil
    /// Offset from the start of the file of the offending chunk header or record.
    public var byteOffset: Int? = nil
    public var reason: String

    public var description: String {
        var place = ""
        if let chunk { place += chunk }
        if let byteOffset { place += (place.isEmpty ? "" : " ") + "at byte \(byteOffset)" }
        return "\(path): " + (place.isEmpty ? "" : place + ": ") + reason
    }

    init(_ error: FileAccessError) { self.init(path: error.path, reason: error.reason) }
}

/// A problem inside the bytes, before the file's path is known to the reader that found it.
struct FormatIssue: Error {
    var chunk: String?
    var byteOffset: Int?
    var reason: String

    func error(path: String) -> SoundFontError { SoundFontError(path: path, chunk: chunk, byteOffset: byteOffset, reason: reason) }
}
