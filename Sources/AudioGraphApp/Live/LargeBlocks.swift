#if canImport(Glibc)
import Glibc
#endif

/// `play`'s memory bound (a fixed part plus `--sample-memory` and `--level-memory`) holds only if
/// what the live builder lets go returns to the system. glibc's malloc serves blocks of 128 KiB
/// and more from mappings of their own, unmapped when freed, but after the first such free it
/// raises that threshold (up to 32 MiB) and serves them from the heap, where freed memory stays
/// resident (and locked, under `mlockall`) unless it lies at the heap's top. Fixed at 128 KiB, the
/// sample frames and levels withdrawn under the budgets go back at once. Control thread, before loading.
enum LargeBlocks {
    static func returnWhenFreed() {
        // mallopt is declared in <malloc.h>, which the Glibc module leaves out: looked up instead.
        guard let symbol = dlsym(nil, "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        _ = mallopt(mmapThreshold, 128 << 10)
    }

    /// glibc's M_MMAP_THRESHOLD.
    private static let mmapThreshold: Int32 = -3
}
