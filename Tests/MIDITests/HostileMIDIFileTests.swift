import AudioTestSupport
import Foundation
import MIDI
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 10 case 12 for MIDI files: a FIFO, a device or a directory is a clear error at once.
@Suite struct HostileMIDIFileTests {
    func readError(_ path: String) -> String? { errorText { _ = try MIDIFile.read(path: path) } }

    @Test func nonRegularFilesAreRefusedWithoutBlocking() throws {
        let dir = NSTemporaryDirectory() + "midi-hostile-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/song.mid"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(readError(fifo) == "\(fifo): is a FIFO (named pipe), not a regular file; give the path of a MIDI file")
        #expect(readError("/dev/urandom")?.contains("is a character device") == true)
        #expect(readError(dir)?.contains("is a directory") == true)
    }

    /// Case 10: a delta of 2²⁸ ticks at one tick per quarter note is parsed (time is a Double),
    /// and the render caps it (see the app's OfflineRenderer tests).
    @Test func aHugeDeltaParsesToAFiniteTime() throws {
        let track = SMFBuilder.delta(0x0FFF_FFFF) + [0x90, 60, 100] + SMFBuilder.delta(0) + [0xFF, 0x2F, 0]
        let song = try MIDIFile.parse(SMFBuilder.file(division: 1, tracks: [track]))
        #expect(song.events.count == 1)
        #expect(song.events[0].seconds.isFinite && song.events[0].seconds > 1e8)
    }
}
