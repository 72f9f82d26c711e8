import Foundation
import MIDI
import Sampler
import SoundFont
import SoundFontLoading
import Testing

/// A render's font has the waveforms of every zone its song plays made together, across the
/// processors (`SoundFontWaveforms.makeExpected`): each holds its sample's own frames, in its
/// played form where every zone loops it, a part shared by zones that play it differently is held
/// plain, and a sample that cannot play is one warning naming it, as when they were made one by one.
@Suite("SoundFont waveforms made together")
struct WaveformsMadeTogetherTests {
    typealias W = SoundFontWriter
    typealias G = SoundFontGenerator

    static let sampleCount = 24
    /// Sample k: 100 + 97·k frames of its own points, looped from frame 10 to 10 frames before its end.
    static func frames(_ k: Int) -> Int { 100 + 97 * k }

    /// Zone k (key 30 + k) plays sample k, looped continuously when k is even; key 29 plays sample 0
    /// unlooped too; sample `sampleCount` (key 30 + `sampleCount`) ends past the sample data.
    static func font() -> W {
        var writer = W()
        var points: [Int16] = [], zones: [W.Zone] = []
        for k in 0..<sampleCount {
            let start = UInt32(points.count), count = frames(k)
            points += (0..<count).map { Int16(truncatingIfNeeded: ($0 * 131 + k * 977) % 60_000 - 30_000) } + [Int16](repeating: 0, count: 46)
            writer.samples.append(Fixtures.sample("S\(k)", start: start, end: start + UInt32(count), loop: (start + 10, start + UInt32(count - 10))))
            var zone = W.Zone(generators: [Fixtures.gen(.keyRange, W.range(UInt8(30 + k), UInt8(30 + k)))])
            if k % 2 == 0 { zone.generators.append(Fixtures.gen(.sampleModes, 1)) }
            zone.generators.append(Fixtures.gen(.sampleID, Int16(k)))
            zones.append(zone)
        }
        zones.append(W.Zone(generators: [Fixtures.gen(.keyRange, W.range(29, 29)), Fixtures.gen(.sampleID, 0)]))
        let end = UInt32(points.count)
        writer.samples.append(Fixtures.sample("Broken", start: end - 10, end: end + 500, loop: (end - 5, end)))
        zones.append(W.Zone(generators: [Fixtures.gen(.keyRange, W.range(UInt8(30 + sampleCount), UInt8(30 + sampleCount))), Fixtures.gen(.sampleID, Int16(sampleCount))]))
        writer.sampleData = W.pcm(points)
        writer.presets = [W.Header(name: "Many", zones: [W.Zone(generators: [Fixtures.gen(.instrument, 0)])])]
        writer.instruments = [W.Header(name: "Many Inst", zones: zones)]
        return writer
    }

    @Test func eachZoneHoldsItsSamplesFramesInTheFormItPlays() throws {
        let path = NSTemporaryDirectory() + "audiograph-together-\(UUID().uuidString).sf2"
        try Data(Self.font().bytes()).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let song = (29...(30 + Self.sampleCount)).map { MIDIMessage.noteOn(channel: 0, note: UInt8($0), velocity: 100) }
        let bank = try SoundFontBankLoader.load(path: path, song: song)
        let file = try SoundFontFile.load(path: path)
        let zones = try #require(bank.programs.first?.zones)
        #expect(zones.count == Self.sampleCount + 1)  // the broken sample's zone is left out
        #expect(bank.warnings.filter { $0.contains("'Broken'") }.count == 1)
        for zone in zones {
            let k = zone.minKey == 29 ? 0 : zone.minKey - 30
            let whole = try file.sampleFrames(k)
            // Sample 0 is played both ways: held plain; an even sample only looped: cut at its loop's end.
            let played = k % 2 == 0 && k != 0
            #expect(zone.waveform.frameCount == (played ? Self.frames(k) - 10 : Self.frames(k)), "sample \(k)")
            #expect(zone.waveform.channel(0) == Array(whole.prefix(zone.waveform.frameCount)), "sample \(k)")
            #expect((zone.waveform.playedLoop != nil) == played, "sample \(k)")
        }
        #expect(bank.residentBytes == (0..<Self.sampleCount).map { 2 * Self.frames($0) - ($0 % 2 == 0 && $0 != 0 ? 20 : 0) }.reduce(0, +))
    }
}
