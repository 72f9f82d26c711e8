import FileAccess

/// Why an audio file could not be read, written or converted: the file ("<memory>" for in-memory
/// conversions) and the reason (libsndfile's own message where it has one), ready to show a user.
/// The same value as the error of opening any outside file, so refusals pass through unchanged.
public typealias AudioFileError = FileAccessError
