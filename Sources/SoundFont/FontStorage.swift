#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import FileAccess

/// The bytes of one SoundFont file, read-only, for as long as any model or sample view refers to
/// them. A file is memory-mapped, so opening a 148 MB font reads only the pages the parser touches
/// (the INFO and pdta chunks, a few hundred kB); sample pages are faulted in when a sample is read
/// and can be dropped again by the kernel. Bytes given in memory (tests, the fuzzer) are copied.
///
/// A mapped file must not be truncated in place while it is in use (reading a page past the new
/// end raises SIGBUS); package managers and editors replace files by rename, which is safe.
/// The file stays open while the storage lives, so that its sample data can be read later without
/// the mapping (`SoundFontSampleData`, from a duplicate of `descriptor`): the same file, even if
/// the path is replaced meanwhile. Immutable after `init`, so any thread may read it.
final class FontStorage: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    private let mapped: Bool
    /// The open file (−1 for bytes given in memory).
    let descriptor: Int32

    /// Maps `path` read-only after `RegularFile.open`'s checks (regular file, size ≤ `maxBytes`).
    init(path: String, maxBytes: Int) throws(FileAccessError) {
        let opened = try RegularFile.open(path, maxBytes: maxBytes, what: "SoundFont")
        guard opened.size > 0 else {
            close(opened.descriptor)
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            mapped = false
            descriptor = -1
            return
        }
        guard let base = mmap(nil, opened.size, PROT_READ, MAP_PRIVATE, opened.descriptor, 0), base != MAP_FAILED else {
            let reason = String(cString: strerror(errno))
            close(opened.descriptor)
            throw FileAccessError(path: path, reason: "cannot map the file: \(reason)")
        }
        bytes = UnsafeRawBufferPointer(start: base, count: opened.size)
        mapped = true
        descriptor = opened.descriptor
    }

    /// A private copy of `data`.
    init(copying data: [UInt8]) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
        data.withUnsafeBytes { copy.copyMemory(from: $0) }
        bytes = UnsafeRawBufferPointer(start: copy.baseAddress, count: data.count)
        mapped = false
        descriptor = -1
    }

    /// Lets the kernel drop the mapped pages under `range` (file bytes) from this process's
    /// resident set once a sample has been read out of them: they stay in the page cache, and a
    /// later read faults them in again. Nothing for bytes held in memory. Any thread.
    func release(_ range: Range<Int>) {
        guard mapped, let base = bytes.baseAddress, !range.isEmpty else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = range.lowerBound / page * page
        let end = min((range.upperBound + page - 1) / page * page, bytes.count)
        guard end > start else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base + start), end - start, Int32(MADV_DONTNEED))
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        guard let base = bytes.baseAddress else { return }
        if mapped {
            munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
        } else {
            UnsafeMutableRawPointer(mutating: base).deallocate()
        }
    }
}
