#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Locks the process's memory as `mlockall(MCL_CURRENT | MCL_FUTURE)` does, except the pages of
/// libraries that the real-time threads never read: ICU (Foundation's copy with its data, about
/// 38 MB, and the system's `libicudata`, about 30 MB, loaded for libxml2). ICU is reached only through Foundation's string, locale and
/// formatting code, which allocates and so cannot be called from a function the compiler checks
/// with `@_noAllocation` (the render path), and from libxml2 (loading, on a control thread).
/// A control thread that does use ICU later takes its pages back by page fault, unlocked.
///
/// Only a mapping the process never wrote is dropped (not writable, and no private copy of a
/// page: smaps' `Anonymous: 0 kB`), so `MADV_DONTNEED` loses nothing: its pages read back as
/// the file's. A relocated read-only segment (RELRO) has private copies and is kept.
/// Everything else is locked, current and future (`MCL_FUTURE`). The current mappings are
/// locked one by one (`mlock`), so the cold ones are never read in at all (no 68 MB peak); if
/// that fails, it falls back to `mlockall` and then gives the cold ones back.
public enum ColdLibraryPages {
    /// File names (before the version) of the libraries left unlocked.
    public static let libraries = ["lib_FoundationICU.so", "libicudata.so", "libicuuc.so", "libicui18n.so"]

    /// Locks all current and future pages but the cold mappings, and drops what of those is
    /// resident. 0, or the `errno` of the `mlockall` that failed. Control thread.
    static func lockAllButCold() -> Int32 {
        guard mlockall(MCL_FUTURE) == 0 else { return errno }
        if let smaps = readFile("/proc/self/smaps") {
            let mappings = Mapping.parse(smaps: smaps)
            let cold = coldRanges(mappings)
            if lockCurrent(mappings, except: cold) {
                drop(cold)
                return 0
            }
        }
        guard mlockall(MCL_CURRENT | MCL_FUTURE) == 0 else { return errno }
        if let smaps = readFile("/proc/self/smaps") { drop(coldRanges(Mapping.parse(smaps: smaps))) }
        return 0
    }

    /// The address ranges of `smaps` (the text of /proc/PID/smaps) that belong to `libraries`,
    /// are not writable and hold no anonymous (copied-on-write) page.
    public static func coldRanges(smaps: String, libraries: [String] = libraries) -> [Range<UInt>] {
        coldRanges(Mapping.parse(smaps: smaps), libraries: libraries)
    }

    private static func coldRanges(_ mappings: [Mapping], libraries: [String] = libraries) -> [Range<UInt>] {
        mappings.filter { mapping in
            let name = mapping.path.split(separator: "/").last.map(String.init) ?? ""
            return mapping.readOnly && mapping.anonymousKB == 0 && libraries.contains { name.hasPrefix($0) }
        }.map(\.range)
    }

    /// `mlock`s each mapping but `cold` (populating it, as `MCL_CURRENT` does). A mapping gone
    /// since smaps was read (ENOMEM) is skipped; inaccessible ones (guard pages) and the
    /// kernel's vsyscall page have nothing to lock. False on any other failure.
    private static func lockCurrent(_ mappings: [Mapping], except cold: [Range<UInt>]) -> Bool {
        for mapping in mappings where !cold.contains(mapping.range) && mapping.accessible && mapping.path != "[vsyscall]" {
            guard let start = UnsafeRawPointer(bitPattern: mapping.range.lowerBound) else { continue }
            if mlock(start, Int(mapping.range.upperBound - mapping.range.lowerBound)) != 0 && errno != ENOMEM { return false }
        }
        return true
    }

    /// Unlocks and drops `ranges`: never written, their pages read back as the file's.
    private static func drop(_ ranges: [Range<UInt>]) {
        for range in ranges {
            guard let start = UnsafeMutableRawPointer(bitPattern: range.lowerBound) else { continue }
            let length = Int(range.upperBound - range.lowerBound)
            if munlock(start, length) == 0 { madvise(start, length, MADV_DONTNEED) }
        }
    }

    /// One mapping of /proc/PID/smaps, with what deciding about it needs.
    struct Mapping {
        var range: Range<UInt>
        var readOnly: Bool
        var accessible: Bool
        var path: String
        var anonymousKB: Int? = nil

        static func parse(smaps: String) -> [Mapping] {
            var mappings: [Mapping] = []
            for line in smaps.split(separator: "\n") {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard let first = fields.first else { continue }
                if first.hasSuffix(":") {
                    if first == "Anonymous:", fields.count > 1, !mappings.isEmpty { mappings[mappings.count - 1].anonymousKB = Int(fields[1]) }
                    continue
                }
                // A mapping's header: "start-end perms offset dev inode [path]".
                let bounds = first.split(separator: "-")
                guard fields.count >= 5, fields[1].count == 4, bounds.count == 2,
                    let low = UInt(bounds[0], radix: 16), let high = UInt(bounds[1], radix: 16), low < high
                else { continue }
                let permissions = Array(fields[1].utf8)
                mappings.append(
                    Mapping(
                        range: low..<high,
                        readOnly: permissions[0] == UInt8(ascii: "r") && permissions[1] == UInt8(ascii: "-"),
                        accessible: permissions[0..<3] != Array("---".utf8)[...],
                        path: fields.count > 5 ? String(fields[5]) : ""))
            }
            return mappings
        }
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
