import AudioFiles
import AudioTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 10 cases 9, 11 and 12 for sample, loop and input files: a clear error naming the file,
/// never a hang, a silent truncation or an allocation the header asked for.
@Suite struct HostileAudioFileTests {
    let dir = TemporaryDirectory()

    /// A 16-bit PCM WAV whose header may lie: `declaredFrames` in the data chunk, `frames` present.
    func wav(rate: UInt32 = 44_100, channels: UInt16 = 1, declaredFrames: Int, frames: Int) -> [UInt8] {
        var b = ByteBuilder()
        b.bigEndian = false
        let blockAlign = 2 * Int(channels)
        b.ascii("RIFF"); b.uint32(UInt32(36 + frames * blockAlign)); b.ascii("WAVE")
        b.ascii("fmt "); b.uint32(16); b.uint16(1); b.uint16(channels); b.uint32(rate)
        b.uint32(rate &* UInt32(blockAlign)); b.uint16(UInt16(blockAlign)); b.uint16(16)
        b.ascii("data"); b.uint32(UInt32(declaredFrames * blockAlign))
        b.bytes += (0..<frames * blockAlign).map { UInt8(truncatingIfNeeded: $0 * 7) }
        return b.bytes
    }

    func reason(_ path: String) -> String? {
        do {
            _ = try AudioFileReader.read(path: path)
            return nil
        } catch {
            #expect(error.description.hasPrefix(path), "the message names the file: \(error.description)")
            return error.reason
        }
    }

    @Test func aTruncatedWAVIsAnErrorNotASilentlyShorterSample() {
        let path = dir.file("truncated.wav")
        writeBytes(wav(declaredFrames: 44_100, frames: 19_978), to: path)
        #expect(reason(path)?.contains("truncated: the audio chunk declares 88200 bytes but the file holds 39956 (19978 frames decodable)") == true, "\(reason(path) ?? "")")
    }

    @Test func anAbsurdSampleRateIsRefusedBeforeAnyAnalysisSizesItself() {
        let path = dir.file("rate.wav")
        writeBytes(wav(rate: 2_147_483_647, declaredFrames: 10_000, frames: 10_000), to: path)
        #expect(reason(path)?.contains("2147483647 Hz (1000…768000 allowed)") == true, "\(reason(path) ?? "")")
    }

    /// A FLAC header can claim any length (here 5·10⁸ frames in a 242-byte file): memory follows
    /// what decodes, and the lie is reported.
    @Test func aFLACClaimingHalfABillionFramesIsReportedWithoutAllocatingThem() throws {
        var streamInfo = [UInt8](repeating: 0, count: 34)
        streamInfo[0] = 0x10; streamInfo[2] = 0x10  // block sizes 4096
        let packed: UInt64 = (44_100 << 44) | (0 << 41) | (15 << 36) | 500_000_000
        for i in 0..<8 { streamInfo[10 + i] = UInt8(truncatingIfNeeded: packed >> (56 - 8 * UInt64(i))) }
        let path = dir.file("claims.flac")
        writeBytes(Array("fLaC".utf8) + [0x80, 0, 0, 34] + streamInfo + [UInt8](repeating: 0, count: 200), to: path)
        var before = rusage(), after = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &before)
        let text = reason(path)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &after)
        #expect(text != nil)
        #expect(after.ru_maxrss - before.ru_maxrss < 200_000, "peak RSS grew by \(after.ru_maxrss - before.ru_maxrss) kB")
    }

    @Test func aNaNSampleIsAnError() throws {
        let path = dir.file("nan.wav")
        try WAVFileWriter.write(path: path, channels: [[0, 0.5, .nan, 0]], sampleRate: 44_100, encoding: .float32)
        #expect(reason(path)?.contains("non-finite sample (NaN or infinity) at frame 2") == true, "\(reason(path) ?? "")")
    }

    @Test func anAIFFBaseNoteOutsideTheMIDIRangeIsAnError() throws {
        let path = dir.file("base.aif")
        try AIFFWriter.write(path: path, channels: [[Float](repeating: 0.1, count: 100)], sampleRate: 44_100, rootKey: 60, sustainLoop: nil)
        var bytes = readBytes(path)
        let inst = try #require((0..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == Array("INST".utf8) })
        bytes[inst + 8] = UInt8(bitPattern: -56)
        writeBytes(bytes, to: path)
        #expect(reason(path)?.contains("base note -56 is outside the MIDI range 0…127") == true, "\(reason(path) ?? "")")
    }

    /// Case 12: a FIFO used to block `open()` for ever; a directory or device said "not found".
    @Test func aFIFODirectoryOrDeviceIsNamedForWhatItIs() throws {
        let fifo = dir.file("fifo.wav")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(reason(fifo)?.contains("is a FIFO (named pipe), not a regular file") == true)
        #expect(reason(dir.path)?.contains("is a directory, not a regular file") == true)
        #expect(reason("/dev/zero")?.contains("is a character device, not a regular file") == true)
        #expect(reason(dir.file("absent.wav"))?.contains("No such file or directory") == true)
    }

    @Test func sixChannelsAreReadWhole() throws {
        let path = dir.file("six.wav")
        writeBytes(wav(channels: 6, declaredFrames: 100, frames: 100), to: path)
        let audio = try AudioFileReader.read(path: path)
        #expect(audio.channels.count == 6 && audio.frameCount == 100, "the reader keeps every channel; the sampler refuses more than 2")
    }
}
