import Foundation
import SoundFont
import SoundFontLoading
import Sampler
import Testing

/// What loading a font for `play` keeps resident: the waveforms, not the file. The font is mapped
/// while it is read and unmapped when the loader returns (it is never locked by the audio thread's
/// `mlockall`, which comes later), and a zone's frames are read by range, giving the same values
/// as slicing the whole sample.
@Suite("SoundFont loading memory")
struct LoadingMemoryTests {
    /// Lines of this process's memory map naming `path` (read to the end: procfs files have no size).
    static func mappings(of path: String) throws -> Int {
        let maps = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps")).readToEnd() ?? Data()
        return String(decoding: maps, as: UTF8.self).split(separator: "\n").filter { $0.hasSuffix(path) }.count
    }

    /// A font file of `Fixtures.minimal()` at a path of its own (tests run in parallel).
    static func writeFont(_ writer: SoundFontWriter = Fixtures.minimal()) throws -> String {
        let path = NSTemporaryDirectory() + "audiograph-loading-\(UUID().uuidString).sf2"
        try Data(writer.bytes()).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theWholeFontLoadedForPlayLeavesNoMappingOfTheFile() throws {
        let path = try Self.writeFont()
        defer { try? FileManager.default.removeItem(atPath: path) }
        // The check can fail: while a parsed font lives, its file is mapped.
        try withExtendedLifetime(try SoundFontFile.load(path: path)) { try #require(try Self.mappings(of: path) == 1) }
        let bank = try SoundFontBankLoader.load(path: path, selection: .wholeFont, song: nil)
        #expect(bank.programs.count == 1 && bank.residentBytes == 200)  // 100 frames of 16-bit points
        #expect(try Self.mappings(of: path) == 0)
        withExtendedLifetime(bank) {}
    }

    /// A 16-bit font's samples are held as their points, 2 bytes a frame as FluidSynth holds them;
    /// with sm24's low bytes, as Float.
    @Test func sixteenBitSamplesAreHeldAsTheirPoints() throws {
        var writer = Fixtures.minimal()
        writer.sm24 = (0..<146).map { UInt8(truncatingIfNeeded: $0 * 37) }
        for (font, bytesPerFrame) in [(Fixtures.minimal(), 2), (writer, 4)] {
            let path = try Self.writeFont(font)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let bank = try SoundFontBankLoader.load(path: path, selection: .wholeFont, song: nil)
            let waveform = try #require(bank.programs.first?.zones.first?.waveform)
            #expect(waveform.bytesPerFrame == bytesPerFrame && bank.residentBytes == 100 * bytesPerFrame)
            #expect(waveform.channel(0) == (try SoundFontFile.load(path: path).sampleFrames(0)))
        }
    }

    /// Zones whose generators are equal (here: differing only in key range) share one list, and
    /// zones with equal modulators (here: the defaults alone) one array: FluidR3_GM's 16912 zones
    /// held ~6 MB of copies.
    @Test func equalGeneratorAndModulatorListsAreHeldOnce() throws {
        typealias W = SoundFontWriter
        var writer = Fixtures.minimal()
        writer.instruments[0].zones = [
            W.Zone(generators: [Fixtures.gen(.keyRange, W.range(0, 40)), Fixtures.gen(.sampleID, 0)]),
            W.Zone(generators: [Fixtures.gen(.keyRange, W.range(41, 80)), Fixtures.gen(.sampleID, 0)]),
            W.Zone(generators: [Fixtures.gen(.keyRange, W.range(81, 127)), Fixtures.gen(.pan, 100), Fixtures.gen(.sampleID, 0)]),
        ]
        let path = try Self.writeFont(writer)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bank = try SoundFontBankLoader.load(path: path, selection: .wholeFont, song: nil)
        let articulations = try bank.programs[0].zones.map { try #require($0.soundFont) }
        try #require(articulations.count == 3)
        func storage<T>(_ array: [T]) -> UnsafeRawPointer? { array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
        #expect(storage(articulations[0].generators.values) == storage(articulations[1].generators.values))
        #expect(storage(articulations[0].generators.values) != storage(articulations[2].generators.values))
        #expect(articulations.allSatisfy { storage($0.modulators) == storage(articulations[0].modulators) })
    }

    @Test func framesReadByRangeEqualTheWholeSampleSliced() throws {
        let path = try Self.writeFont()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var writer = Fixtures.minimal()
        writer.sm24 = (0..<146).map { UInt8(truncatingIfNeeded: $0 * 37) }
        for font in [try SoundFontFile.load(path: path), try Fixtures.load(writer)] {
            let whole = try font.sampleFrames(0)
            for range in [0..<100, 20..<80, 0..<1, 99..<100, 90..<140, 150..<160] {
                let clamped = range.clamped(to: 0..<whole.count)
                #expect(try font.sampleFrames(0, in: range) == Array(whole[clamped]), "frames \(range)")
            }
        }
    }
}
