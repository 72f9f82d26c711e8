import AudioFiles
import AudioTestSupport
import CSndFile
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 21: a WAV past 4 GiB is RF64 (`ds64` chunk), never a plain WAV with wrapped 32-bit sizes;
/// under 4 GiB it is a plain WAV; sox and libsndfile read either at its full length.
@Suite struct WAVHeaderTests {
    func u32(_ bytes: [UInt8], _ at: Int) -> UInt64 { (0..<4).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) } }
    func u64(_ bytes: [UInt8], _ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) } }
    func tag(_ bytes: [UInt8], _ at: Int) -> String { String(decoding: bytes[at..<(at + 4)], as: UTF8.self) }

    @Test func underFourGiBItIsAPlainWAVWithExactSizes() {
        let frames: UInt64 = 536_870_900  // 4 GiB − 160 bytes of stereo float: the largest plain size
        let header = WAVHeader.bytes(channels: 2, sampleRate: 192_000, frames: frames)
        #expect(header.count == WAVHeader.byteCount)
        #expect(tag(header, 0) == "RIFF" && tag(header, 8) == "WAVE" && tag(header, 12) == "JUNK")
        #expect(u32(header, 4) == frames * 8 + 86)
        #expect(tag(header, 86) == "data" && u32(header, 90) == frames * 8)
        #expect(u32(header, 82) == frames, "fact: the frame count")
    }

    @Test func pastFourGiBItIsRF64WithA64BitDataSize() {
        let frames: UInt64 = 600_000_000  // 4.8 GB: 52 min of stereo float at 192 kHz
        let header = WAVHeader.bytes(channels: 2, sampleRate: 192_000, frames: frames)
        #expect(header.count == WAVHeader.byteCount)
        #expect(tag(header, 0) == "RF64" && u32(header, 4) == 0xFFFF_FFFF && tag(header, 12) == "ds64" && u32(header, 16) == 28)
        #expect(u64(header, 20) == frames * 8 + 86 && u64(header, 28) == frames * 8 && u64(header, 36) == frames)
        #expect(tag(header, 86) == "data" && u32(header, 90) == 0xFFFF_FFFF)
        #expect(u32(header, 24 + 32 + 24 + 2) != frames & 0xFFFF_FFFF, "no wrapped size anywhere")
    }

    /// A real 4.8 GB file, sparse (only the header is on disk; the rest reads as silence): libsndfile
    /// reads the whole length from the RF64 header, and so does sox (which takes minutes over such a
    /// file, so only with AUDIOGRAPH_LONG_TESTS=1; `OutputFormatTests` renders a real one then too).
    @Test func soxAndLibsndfileReadTheFullLengthOfAnRF64File() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("long.wav")
        let frames: UInt64 = 600_000_000
        let header = WAVHeader.bytes(channels: 2, sampleRate: 192_000, frames: frames)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(header)))
        #expect(truncate(path, off_t(UInt64(header.count) + frames * 8)) == 0)
        if Self.longTests {
            let soxi = try Self.output("soxi", "-s", path)
            #expect(soxi.trimmingCharacters(in: .whitespacesAndNewlines) == "\(frames)", "soxi -s: \(soxi)")
        }
        var info = SF_INFO()
        let file = try #require(sf_open(path, Int32(SFM_READ), &info), "libsndfile opens it")
        defer { sf_close(file) }
        #expect(UInt64(info.frames) == frames)
        #expect(info.format & Int32(SF_FORMAT_TYPEMASK) == Int32(SF_FORMAT_RF64))
        #expect(sf_seek(file, sf_count_t(frames - 10), Int32(SEEK_SET)) == sf_count_t(frames - 10))
        var tail = [Float](repeating: 1, count: 40)
        #expect(sf_readf_float(file, &tail, 20) == 10, "the last 10 frames read, no more")
    }

    /// The streaming writer: its final header is `WAVHeader`'s for what was written, the samples come
    /// back bit for bit, and the bytes depend on nothing else (no timestamp).
    @Test func theStreamingWriterWritesExactlyItsHeaderAndSamples() throws {
        let dir = TemporaryDirectory()
        let left = Measure.sine(frequency: 440, sampleRate: 48_000, count: 70_000, amplitude: 0.7)
        let right = Measure.noise(count: 70_000, amplitude: 0.25, seed: 3)
        var files: [[UInt8]] = []
        for name in ["a.wav", "b.wav"] {
            let path = dir.file(name)
            let fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o644)
            #expect(fd >= 0)
            let writer = try FloatWAVWriter(descriptor: fd, path: path, sampleRate: 48_000, channels: 2)
            for start in stride(from: 0, to: 70_000, by: 4096) {  // blocks across the 64 kB buffer
                let n = min(4096, 70_000 - start)
                try left.withUnsafeBufferPointer { l in
                    try right.withUnsafeBufferPointer { r in try writer.write(left: l.baseAddress! + start, right: r.baseAddress! + start, frames: n) }
                }
            }
            try writer.finish()
            close(fd)
            files.append(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            let audio = try AudioFileReader.read(path: path)
            #expect(audio.frameCount == 70_000 && audio.channels.count == 2)
            #expect(audio.channels[0] == left && audio.channels[1] == right, "bit for bit")
        }
        #expect(Array(files[0].prefix(WAVHeader.byteCount)) == WAVHeader.bytes(channels: 2, sampleRate: 48_000, frames: 70_000))
        #expect(files[0].count == WAVHeader.byteCount + 70_000 * 8)
        #expect(files[0] == files[1])
    }

    static var longTests: Bool { ProcessInfo.processInfo.environment["AUDIOGRAPH_LONG_TESTS"] == "1" }

    static func output(_ arguments: [String]) throws -> String { try Subprocess.run("/usr/bin/env", arguments).output }
    static func output(_ arguments: String...) throws -> String { try output(arguments) }
}
