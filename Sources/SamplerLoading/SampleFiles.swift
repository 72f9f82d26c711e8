import AudioFiles
import DSP
import Sampler

#if canImport(Glibc)
import Glibc
#endif

/// Sample files decoded once per process and shared, recognised by device and inode (so a file
/// reached by two paths, a link or a relative path is still one file): presets that share a
/// sample folder, as real AUSampler sets do, share its waveforms, and through them their plain
/// loop copies and band-limited levels (`LevelStore`). Entries are weak: a file is decoded again
/// only after every program that played it has gone. Any thread but the render thread.
public final class SampleFiles: Sendable {
    /// The process's files.
    public static let shared = SampleFiles()

    /// What a file decoded to.
    struct Decoded {
        var waveform: SamplerWaveform
        var metadata: SampleMetadata
        /// As stored, e.g. "WAV PCM 16-bit, 44100 Hz, mono".
        var formatDescription: String
        /// What the reader tolerated in it, one line each (every preset using the file says it).
        var warnings: [String]
    }

    private struct FileID: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    private struct Entry {
        weak var waveform: SamplerWaveform?
        var metadata: SampleMetadata
        var formatDescription: String
        var warnings: [String]
    }

    private let entries = ControlLocked<[FileID: Entry]>([:])

    public init() {}

    /// The decoded file at `path`: shared if it is alive already, else decoded by `decode` (which
    /// runs outside the lock; two threads decoding one file at once keep the first result).
    func file(at path: String, decode: () throws(LoadFailure) -> Decoded) throws(LoadFailure) -> Decoded {
        var status = stat()
        guard stat(path, &status) == 0 else { return try decode() }  // the reader names the error
        let id = FileID(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        if let found = alive(id) { return found }
        let decoded = try decode()
        return entries.withLock { entries in
            if let entry = entries[id], let waveform = entry.waveform {
                return Decoded(waveform: waveform, metadata: entry.metadata, formatDescription: entry.formatDescription, warnings: entry.warnings)
            }
            entries[id] = Entry(
                waveform: decoded.waveform, metadata: decoded.metadata, formatDescription: decoded.formatDescription, warnings: decoded.warnings)
            return decoded
        }
    }

    private func alive(_ id: FileID) -> Decoded? {
        entries.withLock { entries in
            guard let entry = entries[id] else { return nil }
            guard let waveform = entry.waveform else {
                entries[id] = nil
                return nil
            }
            return Decoded(waveform: waveform, metadata: entry.metadata, formatDescription: entry.formatDescription, warnings: entry.warnings)
        }
    }

    /// Why a file could not be used (the sample report's reason).
    struct LoadFailure: Error {
        var description: String
    }
}
