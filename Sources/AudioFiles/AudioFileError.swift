/// Why an audio file could not be read, written or converted. `description` names the file
/// and the reason (libsndfile's own message where it has one), ready to show a user.
public struct AudioFileError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file involved ("<memory>" for in-memory conversions).
    public var path: String
    /// What went wrong, in words.
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
