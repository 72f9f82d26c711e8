import ALSAIO
import Testing

@Suite struct ColdLibraryPagesTests {
    /// An excerpt of /proc/self/smaps of `audiograph play` (other keys trimmed).
    static let smaps = """
        7f0000000000-7f0002571000 r-xp 00000000 08:01 1001   /opt/swift/usr/lib/swift/linux/lib_FoundationICU.so
        Size:              38340 kB
        Rss:               38340 kB
        Anonymous:             0 kB
        Locked:            38340 kB
        7f0002572000-7f0002599000 r--p 02571000 08:01 1001   /opt/swift/usr/lib/swift/linux/lib_FoundationICU.so
        Size:                156 kB
        Anonymous:           156 kB
        7f0002599000-7f00025a0000 rw-p 02598000 08:01 1001   /opt/swift/usr/lib/swift/linux/lib_FoundationICU.so
        Anonymous:            28 kB
        7f0003000000-7f0003002000 r--p 00000000 08:01 1002   /usr/lib/x86_64-linux-gnu/libicudata.so.72.1
        Anonymous:             0 kB
        7f0004000000-7f0004600000 r-xp 00000000 08:01 1003   /opt/swift/usr/lib/swift/linux/libswiftCore.so
        Anonymous:             0 kB
        7f0005000000-7f0005800000 rw-p 00000000 00:00 0 
        Anonymous:          8192 kB
        7f0006000000-7f0006001000 r--s 00000000 08:01 1004   /usr/lib/x86_64-linux-gnu/libicuuc.so.72.1
        Anonymous:             0 kB
        """

    @Test func onlyUnwrittenMappingsOfTheNamedLibrariesAreReleased() {
        let ranges = ColdLibraryPages.coldRanges(smaps: Self.smaps)
        #expect(
            ranges == [
                0x7f00_0000_0000..<0x7f00_0257_1000,  // ICU's code and data, never written
                0x7f00_0300_0000..<0x7f00_0300_2000,
                0x7f00_0600_0000..<0x7f00_0600_1000,
            ])
    }

    @Test func aRelocatedReadOnlySegmentIsKept() {
        // RELRO: read-only now, but the dynamic linker wrote it (156 kB of private copies);
        // MADV_DONTNEED would give back the file's unrelocated bytes.
        let ranges = ColdLibraryPages.coldRanges(smaps: Self.smaps)
        #expect(!ranges.contains { $0.contains(0x7f00_0257_2000) })
    }

    @Test func otherLibrariesStayLocked() {
        let ranges = ColdLibraryPages.coldRanges(smaps: Self.smaps, libraries: ["libicudata.so"])
        #expect(ranges == [0x7f00_0300_0000..<0x7f00_0300_2000])
    }
}
