import AudioTestSupport
import Foundation
import Testing

/// Memory bounded by design (issue 21): each bound measured as the peak RSS of the `audiograph`
/// executable in a child process (GNU time's %M), on inputs made here. Before the bounds, these
/// runs took 5–30 times the limits asserted (figures in Tests/hostile, measured at full size).
@Suite struct MemoryBoundTests {
    let scratch = TemporaryDirectory()

    /// Runs the executable; returns its exit status, output and peak RSS in MB.
    func measure(_ arguments: [String]) throws -> (status: Int32, output: String, peakMB: Double) {
        let rss = scratch.file("rss-\(UUID().uuidString)")
        let run = try CommandLineTests().run(["-f", "%M", "-o", rss, CommandLineTests.binary] + arguments, executable: "/usr/bin/time")
        let kilobytes = Double(try String(contentsOfFile: rss, encoding: .utf8).split(separator: "\n").last ?? "") ?? .infinity
        return (run.status, run.output, kilobytes / 1024)
    }

    /// A 16-bit WAV of a 441 Hz sine (period 100 frames), `channels` channels alike.
    func writeWAV(_ name: String, frames: Int, rate: Int = 44_100, channels: Int = 1) throws -> String {
        let period = (0..<100).map { Int16(12_000 * sin(2 * Double.pi * Double($0) / 100)) }
        var data = Data(capacity: 44 + 2 * frames * channels)
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + 2 * frames * channels)); data.append(contentsOf: Array("WAVEfmt ".utf8))
        append(UInt32(16)); append(UInt16(1)); append(UInt16(channels)); append(UInt32(rate)); append(UInt32(rate * 2 * channels))
        append(UInt16(2 * channels)); append(UInt16(16)); data.append(contentsOf: Array("data".utf8)); append(UInt32(2 * frames * channels))
        var samples = [Int16](repeating: 0, count: frames * channels)
        for frame in 0..<frames { for c in 0..<channels { samples[frame * channels + c] = period[frame % 100].littleEndian } }
        samples.withUnsafeBytes { data.append(contentsOf: $0) }
        let path = scratch.file(name)
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A preset with one looped zone of `wav` (root 60) on key 60, or across the keyboard.
    func writePreset(_ name: String, wav: String, wholeKeyboard: Bool) throws -> String {
        let keys = wholeKeyboard ? (0, 127) : (60, 60)
        let text = """
            <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>Instrument</key><dict><key>Layers</key><array>
            <dict><key>ID</key><integer>0</integer><key>Zones</key><array><dict><key>ID</key><integer>0</integer>
            <key>waveform</key><integer>1</integer><key>min key</key><integer>\(keys.0)</integer><key>max key</key>
            <integer>\(keys.1)</integer><key>root key</key><integer>60</integer><key>loop enabled</key><true/></dict></array></dict>
            </array></dict><key>file-references</key><dict><key>Sample:1</key><string>\(wav)</string></dict>
            <key>name</key><string>memory</string><key>type</key><integer>1635085685</integer>
            <key>subtype</key><integer>1935764848</integer></dict></plist>
            """
        return try scratch.write(text, to: name)
    }

    /// A type-0 MIDI file: for each program in `programs`, a program change and key 60 for an eighth.
    func writeSong(_ name: String, programs: Range<Int>) throws -> String {
        var track: [UInt8] = []
        for program in programs { track += [0, 0xC0, UInt8(program), 0, 0x90, 60, 100, 1, 0x80, 60, 0] }
        track += [0, 0xFF, 0x2F, 0]
        var data: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 8] + Array("MTrk".utf8)
        data += withUnsafeBytes(of: UInt32(track.count).bigEndian, Array.init) + track
        let path = scratch.file(name)
        try Data(data).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A 10 M-frame sample across the keyboard wants ~520 MB of levels; with a 16 MB budget they
    /// are not built (one warning line) and the run stays near the sample's own 80 MB (frames and loop copy).
    @Test func aBigSampleStaysWithinTheLevelBudget() throws {
        let wav = try writeWAV("big.wav", frames: 10_000_000)
        let preset = try writePreset("big.aupreset", wav: wav, wholeKeyboard: true)
        let instrument = try scratch.write("{\"name\":\"big\",\"preset\":\"\(preset)\"}", to: "big.json")
        let song = try writeSong("note.mid", programs: 0..<1)
        let run = try measure(["render", "--instrument", instrument, "--midi", song, "--level-memory", "16", "--out", scratch.file("a.wav")])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("band-limited levels: 1 region(s) need") && run.output.contains("16 MB level budget"), "\(run.output)")
        #expect(run.peakMB < 200, "peak RSS \(run.peakMB) MB")
    }

    /// 128 presets on one 200 k-frame sample share its decode, loop copy and levels: one preset's
    /// memory (~12 MB), not 128 times it (~1.5 GB before).
    @Test func presetsSharingASampleLoadItOnce() throws {
        let wav = try writeWAV("shared.wav", frames: 200_000)
        var programs: [String] = []
        for i in 0..<128 { programs.append("\"" + (try writePreset("p\(i).aupreset", wav: wav, wholeKeyboard: false)) + "\"") }
        let instrument = try scratch.write(
            "{\"name\":\"shared\",\"programs\":[\(programs.joined(separator: ","))],\"channels\":{\"drums\":[]}}", to: "shared.json")
        let song = try writeSong("each.mid", programs: 0..<128)
        let run = try measure(["render", "--instrument", instrument, "--midi", song, "--out", scratch.file("b.wav")])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("128 notes"), "\(run.output)")
        #expect(run.peakMB < 150, "peak RSS \(run.peakMB) MB")
    }

    /// A 64 MB input (8 channels at 768 kHz, 4 M frames) is read and converted in chunks: `render
    /// --input` and `pitch` stay far below its decoded size (128 MB, converted and copied ~500 MB).
    @Test func aBigInputIsStreamed() throws {
        let wav = try writeWAV("input.wav", frames: 4_000_000, rate: 768_000, channels: 8)
        let song = try writeSong("note.mid", programs: 0..<1)
        let render = try measure(["render", "--input", wav, "--midi", song, "--max-seconds", "1", "--out", scratch.file("c.wav")])
        #expect(render.status == 0, "\(render.output)")
        #expect(render.peakMB < 120, "render peak RSS \(render.peakMB) MB")
        let pitch = try measure(["pitch", wav, "--hop", "65536"])
        #expect(pitch.status == 0 && pitch.output.split(separator: "\n").count > 60, "\(pitch.output.prefix(300))")
        #expect(pitch.peakMB < 80, "pitch peak RSS \(pitch.peakMB) MB")
    }
}
