#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Gives back, right after `mlockall`, the pages of libraries that the real-time threads never
/// read: ICU (Foundation's copy with its data, about 38 MB, and the system's `libicudata`, about
/// 30 MB, loaded for libxml2). ICU is reached only through Foundation's string, locale and
/// formatting code, which allocates and so cannot be called from a function the compiler checks
/// with `@_noAllocation` (the render path), and from libxml2 (loading, on a control thread).
/// A control thread that does use ICU later takes its pages back by page fault, unlocked.
///
/// Only a mapping the process never wrote is dropped (not writable, and no private copy of a
/// page: smaps' `Anonymous: 0 kB`), so `MADV_DONTNEED` loses nothing: its pages read back as
/// the file's. A relocated read-only segment (RELRO) has private copies and is kept.
/// Everything else stays locked, current and future (`MCL_FUTURE`).
public enum ColdLibraryPages {
    /// File names (before the version) of the libraries released.
    public static let libraries = ["lib_FoundationICU.so", "libicudata.so", "libicuuc.so", "libicui18n.so"]

    /// Unlocks and drops the cold mappings of this process; returns the bytes of address space
    /// released. Control thread, after `mlockall`.
    @discardableResult
    static func release() -> Int {
        guard let smaps = readFile("/proc/self/smaps") else { return 0 }
        var released = 0
        for range in coldRanges(smaps: smaps) {
            guard let start = UnsafeMutableRawPointer(bitPattern: range.lowerBound) else { continue }
            let length = Int(range.upperBound - range.lowerBound)
            guard munlock(start, length) == 0, madvise(start, length, MADV_DONTNEED) == 0 else { continue }
            released += length
        }
        return released
    }

    /// The address ranges of `smaps` (the text of /proc/PID/smaps) that belong to `libraries`,
    /// are not writable and hold no anonymous (copied-on-write) page.
    public static func coldRanges(smaps: String, libraries: [String] = libraries) -> [Range<UInt>] {
        var ranges: [Range<UInt>] = []
        var candidate: Range<UInt>?
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.hasSuffix(":") {
                if first == "Anonymous:", let range = candidate {
                    if fields.count > 1 && fields[1] == "0" { ranges.append(range) }
                    candidate = nil
                }
                continue
            }
            candidate = nil
            // A mapping's header: "start-end perms offset dev inode path".
            guard fields.count >= 6, fields[1].count == 4 else { continue }
            let permissions = Array(fields[1].utf8)
            guard permissions[0] == UInt8(ascii: "r"), permissions[1] == UInt8(ascii: "-") else { continue }
            let name = fields[5].split(separator: "/").last.map(String.init) ?? ""
            guard libraries.contains(where: { name.hasPrefix($0) }) else { continue }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let low = UInt(bounds[0], radix: 16), let high = UInt(bounds[1], radix: 16), low < high
            else { continue }
            candidate = low..<high
        }
        return ranges
    }

    private static func readFile(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
