import AudioFiles
import AudioTestSupport
import Foundation
import Testing

/// A WAV whose data chunk declares a few bytes more than the file holds (under 16: a pad byte, a
/// header or an alignment word counted) is read, its whole frames all there, with one warning
/// naming the file and the offset where it ends; 16 bytes or more missing is truncation.
@Suite struct LenientAudioFileTests {
    let dir = TemporaryDirectory()

    /// 16-bit stereo PCM, `frames` declared, the file cut `missingBytes` short of them.
    func wav(frames: Int, missingBytes: Int) -> (bytes: [UInt8], samples: [Int16]) {
        var b = ByteBuilder()
        b.bigEndian = false
        let dataBytes = frames * 4
        b.ascii("RIFF"); b.uint32(UInt32(36 + dataBytes)); b.ascii("WAVE")
        b.ascii("fmt "); b.uint32(16); b.uint16(1); b.uint16(2); b.uint32(48000)
        b.uint32(48000 * 4); b.uint16(4); b.uint16(16)
        b.ascii("data"); b.uint32(UInt32(dataBytes))
        let samples = (0..<2 * frames).map { Int16(truncatingIfNeeded: $0 * 97 - 30000) }
        for s in samples { b.uint16(UInt16(bitPattern: s)) }
        return (Array(b.bytes.dropLast(missingBytes)), samples)
    }

    @Test func twoBytesShortIsReadWithOneWarning() throws {
        let path = dir.file("short.wav")
        let (bytes, samples) = wav(frames: 1000, missingBytes: 2)
        writeBytes(bytes, to: path)
        let audio = try AudioFileReader.read(path: path)
        #expect(audio.frameCount == 999, "the whole frames")
        #expect(audio.channels[0].prefix(3) == [Float(samples[0]) / 32768, Float(samples[2]) / 32768, Float(samples[4]) / 32768])
        #expect(audio.channels[1][998] == Float(samples[1997]) / 32768)
        #expect(audio.warnings == [
            "\(path): byte offset \(bytes.count): the file ends inside its audio chunk, which declares 4000 bytes, 2 more than "
                + "the file holds; read its 999 whole frames"
        ])
    }

    @Test(arguments: [16, 17, 400])
    func sixteenBytesOrMoreShortIsTruncation(missing: Int) {
        let path = dir.file("cut\(missing).wav")
        writeBytes(wav(frames: 1000, missingBytes: missing).bytes, to: path)
        let error = #expect(throws: AudioFileError.self) { try AudioFileReader.read(path: path) }
        #expect(error?.reason.hasPrefix("truncated: the audio chunk declares 4000 bytes") == true, "\(error?.reason ?? "")")
    }
}
