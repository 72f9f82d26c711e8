#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// A file as the system knows it: the same pair for every name it has (a symlink, a hard link,
/// `./a/../b.mid`), and a different pair for a different file of the same name later.
public struct FileIdentity: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64

    public init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    /// The identity of what `path` names now (symlinks followed), or nil if nothing is there.
    public static func of(_ path: String) -> FileIdentity? {
        var status = stat()
        return stat(path, &status) == 0 ? FileIdentity(status) : nil
    }
}

/// Every file `RegularFile` has opened in this process (songs, presets, instrument files,
/// samples, input audio), so that a command writing an output can refuse to write over one of
/// its own inputs, whatever name the output is given. `RegularFile` is the one door every reader
/// goes through, so nothing is missed. Any thread.
public enum OpenedFiles {
    public struct Entry: Sendable, Equatable {
        /// The path it was opened as, and the kind of file ("MIDI file", "preset"…).
        public var path: String
        public var what: String
    }

    private static let entries = Mutex<[FileIdentity: Entry]>([:])

    static func record(_ identity: FileIdentity, path: String, what: String) {
        entries.withLock { table in
            if table[identity] == nil { table[identity] = Entry(path: path, what: what) }
        }
    }

    /// The input `identity` was opened as, if this process read it.
    public static func entry(for identity: FileIdentity) -> Entry? {
        entries.withLock { $0[identity] }
    }
}
