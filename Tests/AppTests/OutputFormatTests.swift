import AudioFiles
import AudioTestSupport
import CSndFile
import Foundation
import MIDI
import Testing

/// Issue 21: `--out`'s extension picks the container as FluidSynth's `-F` and sox do, each with
/// the sample format `render --help` names; every render of the same song is the same bytes;
/// `--out -` streams WAV on standard output.
@Suite struct OutputFormatTests {
    let cli = CommandLineTests()
    let scratch = TemporaryDirectory()
    /// One second of a sampler note (channel 1) and a synth note (channel 2), and their release.
    var song: [String] {
        let path = scratch.file("song.mid")
        if !FileManager.default.fileExists(atPath: path) {
            let notes = [(0, MIDIMessage.noteOn(channel: 0, note: 60, velocity: 100)), (0, .noteOn(channel: 1, note: 69, velocity: 100)),
                         (960, .noteOff(channel: 0, note: 60, velocity: 0)), (960, .noteOff(channel: 1, note: 69, velocity: 0))]
            try? MIDIFileWriter.write(path: path, tracks: [MIDIFileWriter.Track(name: "notes", events: notes.map {
                MIDIFileWriter.TimedEvent(tick: $0.0, message: $0.1)
            })])
        }
        return ["render", "--midi", path]
    }

    static func soxi(_ option: String, _ path: String) throws -> String {
        try WAVHeaderTestsShell.output("soxi", option, path).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: [("wav", "Floating Point PCM", "32"), ("flac", "FLAC", "24"), ("aiff", "Signed Integer PCM", "24"),
                      ("aif", "Signed Integer PCM", "24"), ("caf", "Floating Point PCM", "32"), ("ogg", "Vorbis", "0"),
                      ("oga", "Vorbis", "0")])
    func eachExtensionWritesItsFormatTheSameBytesEveryTime(ext: String, encoding: String, bits: String) throws {
        let first = scratch.file("a.\(ext)"), second = scratch.file("b.\(ext)"), reference = scratch.file("ref.wav")
        for out in [first, second, reference] { #expect(cli.runOK(song + ["--out", out])) }
        #expect(FileManager.default.contents(atPath: first) == FileManager.default.contents(atPath: second), "byte-identical renders")
        #expect(try Self.soxi("-e", first).contains(encoding))
        #expect(try Self.soxi("-b", first) == bits)
        #expect(try Self.soxi("-s", first) == Self.soxi("-s", reference), "as long as the WAV")
        let wav = try AudioFileReader.read(path: reference), other = try AudioFileReader.read(path: first)
        #expect(other.frameCount == wav.frameCount && other.channels.count == 2)
        switch ext {
        case "ogg", "oga":  // lossy: the level, within 0.2 dB
            #expect(abs(Measure.decibels(Measure.rms(other.channels[0][...])) - Measure.decibels(Measure.rms(wav.channels[0][...]))) < 0.2)
        default:  // lossless: float exactly, 24-bit within half a step
            let step: Float = bits == "32" ? 0 : 1.0 / 8_388_608
            let worst = zip(wav.channels[0], other.channels[0]).map { abs($0 - $1) }.max() ?? 1
            #expect(worst <= step, "largest difference \(worst)")
        }
    }

    /// `--out -`: WAV on standard output (sizes "to the end", as a pipe allows), the same samples as
    /// the file; what is said goes to standard error.
    @Test func dashWritesWAVOnStandardOutput() throws {
        let file = scratch.file("file.wav")
        #expect(cli.runOK(song + ["--out", file]))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLineTests.binary)
        process.arguments = song + ["--out", "-"]
        process.currentDirectoryURL = URL(fileURLWithPath: CommandLineTests.repository)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let streamed = out.fileHandleForReading.readDataToEndOfFile()
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(said)")
        #expect(said.contains("rendered 4.") && said.contains("to -:") && said.contains("channel  2"), "\(said)")
        let written = try #require(FileManager.default.contents(atPath: file))
        #expect(streamed.prefix(4) == Data("RIFF".utf8))
        #expect(streamed.count == written.count && streamed.dropFirst(WAVHeader.byteCount) == written.dropFirst(WAVHeader.byteCount))
        #expect(Array(streamed.prefix(WAVHeader.byteCount)) == WAVHeader.bytes(channels: 2, sampleRate: 48_000, frames: nil))
    }

    /// AUDIOGRAPH_LONG_TESTS=1 only (about 1–2 min, 4.6 GB on disk for a moment): a real render past
    /// 4 GiB, 3000 s of silence at 192 kHz, is RF64, and sox and libsndfile read every frame of it.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["AUDIOGRAPH_LONG_TESTS"] == "1", "AUDIOGRAPH_LONG_TESTS=1"))
    func aRenderPastFourGiBIsRF64ReadAtItsFullLength() throws {
        let midi = scratch.file("silent.mid")
        try MIDIFileWriter.write(path: midi, tracks: [MIDIFileWriter.Track(name: "silence", events: [
            MIDIFileWriter.TimedEvent(tick: 3000 * 960, message: .controlChange(channel: 0, controller: 1, value: 0)),
        ])])
        let out = scratch.file("long.wav")
        #expect(cli.runOK(["render", "--midi", midi, "--rate", "192000", "--block", "4096", "--out", out]))
        let size = try #require(try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int)
        let frames = (size - WAVHeader.byteCount) / 8
        #expect(frames >= 3000 * 192_000 && size > 1 << 32, "\(size) bytes")
        #expect(try Self.soxi("-s", out) == "\(frames)")
        var info = SF_INFO()
        let file = try #require(sf_open(out, Int32(SFM_READ), &info))
        sf_close(file)
        #expect(info.frames == sf_count_t(frames) && info.format & Int32(SF_FORMAT_TYPEMASK) == Int32(SF_FORMAT_RF64))
    }
}

/// `soxi` and friends.
enum WAVHeaderTestsShell {
    static func output(_ arguments: String...) throws -> String { try Subprocess.run("/usr/bin/env", arguments).output }
}
