import AudioTestSupport
import Foundation
import Presets
import Sampler
import SamplerLoading
import Testing

/// A real-world `.aupreset` whose sample's data chunk declares 2 bytes more than the file holds
/// (sox reads such files with a warning): the preset loads and plays, with one warning line.
@Suite struct ShortSampleFileTests {
    @Test func aPresetWhoseSampleIsTwoBytesShortLoadsWithOneWarning() throws {
        let directory = TemporaryDirectory()
        // 16-bit mono, 4410 frames of a 441 Hz sine at 44.1 kHz; the data chunk says 2 bytes more.
        let frames = 4410
        var bytes: [UInt8] = []
        func le(_ value: Int, _ count: Int) { for i in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * i))) } }
        bytes += Array("RIFF".utf8); le(36 + 2 * frames + 2, 4); bytes += Array("WAVEfmt ".utf8)
        le(16, 4); le(1, 2); le(1, 2); le(44_100, 4); le(88_200, 4); le(2, 2); le(16, 2)
        bytes += Array("data".utf8); le(2 * frames + 2, 4)
        for i in 0..<frames { le(Int(16_000 * sin(2 * Double.pi * Double(i) / 100)), 2) }
        let samplePath = directory.file("short.wav")
        #expect(FileManager.default.createFile(atPath: samplePath, contents: Data(bytes)))
        let text = PresetText.oneSample("short.wav", zone: "<key>root key</key><integer>69</integer>")
        let result = try buildPreset(text, in: directory)
        #expect(result.samples.first?.isLoaded == true, "\(String(describing: result.samples.first?.status))")
        let lines = result.warnings.filter { $0.contains("short.wav") }
        #expect(lines.count == 1 && lines[0].contains("the file ends inside its audio chunk"), "\(result.warnings)")
    }
}
