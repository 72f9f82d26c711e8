// Writes the files for measuring FluidSynth on the same workload as `sampler-bench`: a tiny
// SoundFont (one looped harmonic tone, four key-range zones so every key plays within ±8
// semitones of its root) and two Standard MIDI Files of equal length, one holding `voices` notes
// and one holding none. Callgrind's instruction difference between the two fluidsynth runs,
// divided by voices × frames, is FluidSynth's cost per voice-sample.

#if canImport(Glibc)
import Glibc
#endif
import MIDI

enum FluidSynthFixture {
    static let sampleRate = 48_000
    static let firstKey = 36

    /// Writes `tone.sf2`, `notes.mid` and `silence.mid` into `directory`.
    static func write(directory: String, voices: Int, seconds: Double) -> Bool {
        let ticks = Int(seconds * 960)  // 480 ticks per quarter note at 120 bpm = 960 per second
        let keys = (0..<min(voices, 64)).map { firstKey + $0 }
        return save(soundFont(), to: directory + "/tone.sf2")
            && save(midiFile(keys: keys, lengthTicks: ticks), to: directory + "/notes.mid")
            && save(midiFile(keys: [], lengthTicks: ticks), to: directory + "/silence.mid")
    }

    // MARK: SoundFont 2

    private static func soundFont() -> [UInt8] {
        let period = 240  // 200 Hz at 48 kHz: the loop holds whole periods
        let frames = sampleRate
        var pcm: [UInt8] = []
        for n in 0..<frames {
            let phase = 2 * Double.pi * Double(n) / Double(period)
            let value = 0.3 * (sin(phase) + sin(2 * phase) / 2 + sin(3 * phase) / 3 + sin(4 * phase) / 4)
            pcm += le16(Int(value * 32767))
        }
        pcm += [UInt8](repeating: 0, count: 46 * 2)  // the 46 zero frames SF2 requires after a sample

        let info = chunk("ifil", le16(2) + le16(1)) + chunk("isng", text("EMU8000", 8)) + chunk("INAM", text("bench", 6))
        let phdr = name("tone") + le16(0) + le16(0) + le16(0) + le32(0) + le32(0) + le32(0)
            + name("EOP") + le16(0) + le16(0) + le16(1) + le32(0) + le32(0) + le32(0)
        let pbag = le16(0) + le16(0) + le16(1) + le16(0)
        let pgen = le16(41) + le16(0) + le16(0) + le16(0)  // instrument 0; terminal
        let zones = 4
        let inst = name("tone") + le16(0) + name("EOI") + le16(zones)
        var ibag: [UInt8] = []
        var igen: [UInt8] = []
        for zone in 0..<zones {
            ibag += le16(zone * 4) + le16(0)
            let low = firstKey + 16 * zone, high = low + 15
            igen += le16(43) + [UInt8(low), UInt8(high)]  // keyRange
            igen += le16(58) + le16(low + 8)  // overridingRootKey
            igen += le16(54) + le16(1)  // sampleModes: loop continuously
            igen += le16(53) + le16(0)  // sampleID (last)
        }
        ibag += le16(zones * 4) + le16(0)
        igen += le16(0) + le16(0)
        let shdr = name("tone") + le32(0) + le32(frames) + le32(frames / 2) + le32(frames) + le32(sampleRate)
            + [60, 0] + le16(0) + le16(1)
            + name("EOS") + le32(0) + le32(0) + le32(0) + le32(0) + le32(0) + [0, 0] + le16(0) + le16(0)
        let modTerminal = [UInt8](repeating: 0, count: 10)
        let pdta = chunk("phdr", phdr) + chunk("pbag", pbag) + chunk("pmod", modTerminal) + chunk("pgen", pgen)
            + chunk("inst", inst) + chunk("ibag", ibag) + chunk("imod", modTerminal) + chunk("igen", igen)
            + chunk("shdr", shdr)
        let body = Array("sfbk".utf8) + list("INFO", info) + list("sdta", chunk("smpl", pcm)) + list("pdta", pdta)
        return chunk("RIFF", body)
    }

    // MARK: Standard MIDI Files

    /// All `keys` held from tick 0 to `lengthTicks`; a controller event at both ends gives the file
    /// with no keys the same length.
    private static func midiFile(keys: [Int], lengthTicks: Int) -> [UInt8] {
        var events = keys.map { MIDIFileWriter.TimedEvent(tick: 0, message: .noteOn(channel: 0, note: UInt8($0), velocity: 100)) }
        events.append(.init(tick: 0, message: .controlChange(channel: 0, controller: 7, value: 127)))
        events.append(.init(tick: lengthTicks, message: .controlChange(channel: 0, controller: 7, value: 127)))
        events += keys.map { .init(tick: lengthTicks, message: .noteOff(channel: 0, note: UInt8($0), velocity: 0)) }
        return MIDIFileWriter.bytes(tracks: [MIDIFileWriter.Track(name: "notes", events: events)])
    }

    // MARK: Bytes

    private static func chunk(_ id: String, _ payload: [UInt8]) -> [UInt8] {
        Array(id.utf8) + le32(payload.count) + payload + (payload.count % 2 == 1 ? [0] : [])
    }

    private static func list(_ type: String, _ payload: [UInt8]) -> [UInt8] { chunk("LIST", Array(type.utf8) + payload) }
    private static func name(_ value: String) -> [UInt8] { text(value, 20) }

    private static func text(_ value: String, _ length: Int) -> [UInt8] {
        let bytes = Array(value.utf8.prefix(length - 1))
        return bytes + [UInt8](repeating: 0, count: length - bytes.count)
    }

    private static func le16(_ value: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)] }
    private static func le32(_ value: Int) -> [UInt8] { le16(value) + le16(value >> 16) }

    private static func save(_ bytes: [UInt8], to path: String) -> Bool {
        guard let file = fopen(path, "wb") else { return false }
        defer { fclose(file) }
        return fwrite(bytes, 1, bytes.count, file) == bytes.count
    }
}
