import CSndFile

/// The container and sample format of a rendered file, chosen from the output's extension as
/// FluidSynth's `-F` and sox do; libsndfile writes them all. The render's float samples (peaks
/// held under the limiter's ceiling) go out as 32-bit float where the container has it, else as
/// 24-bit PCM; Ogg Vorbis is lossy at `vorbisQuality`.
public struct OutputFormat: Sendable, Equatable, CustomStringConvertible {
    public enum Container: String, Sendable, CaseIterable { case wav, flac, aiff, caf, oggVorbis }
    public var container: Container

    /// libsndfile's quality (0…1, ≈ `oggenc -q 6`: about 190 kbit/s for stereo at 48 kHz).
    public static let vorbisQuality = 0.6

    public init(_ container: Container) { self.container = container }

    /// Extensions (lower-cased) and their containers.
    public static let byExtension: [(String, Container)] = [
        ("wav", .wav), ("wave", .wav), ("flac", .flac), ("aiff", .aiff), ("aif", .aiff), ("caf", .caf),
        ("ogg", .oggVorbis), ("oga", .oggVorbis),
    ]

    /// The format `path`'s extension asks for; an extension it cannot write is refused in one line.
    public static func forPath(_ path: String) throws(AudioFileError) -> OutputFormat {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else {
            throw AudioFileError(path: path, reason: "no extension to choose the format from; end the name in .\(extensionList)")
        }
        let ext = name[name.index(after: dot)...].lowercased()
        guard let container = byExtension.first(where: { $0.0 == ext })?.1 else {
            throw AudioFileError(path: path, reason: "cannot write .\(ext) files; give a name ending in .\(extensionList)")
        }
        return OutputFormat(container)
    }

    static var extensionList: String {
        let names = byExtension.map(\.0)
        return names.dropLast().joined(separator: ", .") + " or ." + names.last!
    }

    /// What a user is told the file holds.
    public var description: String {
        switch container {
        case .wav: "WAV, 32-bit float (RF64 past 4 GiB)"
        case .flac: "FLAC, 24-bit"
        case .aiff: "AIFF, 24-bit"
        case .caf: "CAF, 32-bit float"
        case .oggVorbis: "Ogg Vorbis, quality \(Self.vorbisQuality)"
        }
    }

    /// A writer of this format on `descriptor` (left open); `path` names it in messages. WAV is
    /// written here (`FloatWAVWriter`: RF64 when needed, also on a pipe), the others by libsndfile.
    public func writer(descriptor: Int32, path: String, sampleRate: Int, channels: Int) throws(AudioFileError) -> AudioFileSink {
        guard container != .wav else {
            return try FloatWAVWriter(descriptor: descriptor, path: path, sampleRate: sampleRate, channels: channels)
        }
        return try SoundFileWriter(descriptor: descriptor, path: path, sampleRate: sampleRate, channels: channels, format: self)
    }

    /// libsndfile's format word.
    var sndFileFormat: Int32 {
        switch container {
        case .wav: Int32(SF_FORMAT_WAV) | Int32(SF_FORMAT_FLOAT)
        case .flac: Int32(SF_FORMAT_FLAC) | Int32(SF_FORMAT_PCM_24)
        case .aiff: Int32(SF_FORMAT_AIFF) | Int32(SF_FORMAT_PCM_24)
        case .caf: Int32(SF_FORMAT_CAF) | Int32(SF_FORMAT_FLOAT)
        case .oggVorbis: Int32(SF_FORMAT_OGG) | Int32(SF_FORMAT_VORBIS)
        }
    }
}
