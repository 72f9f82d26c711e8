import Presets
import Testing

/// Hostile input: absurd numbers are clamped with warnings, and corrupted files only ever throw.
@Suite("Robustness")
struct RobustnessTests {
    typealias F = PresetFixtures

    @Test func absurdNumbersAreClampedWithWarnings() throws {
        let huge = "9223372036854775807"
        let layer = F.layer(
            extra: "<key>key offset</key><integer>\(huge)</integer>",
            zones: F.zone(
                id: 1, waveform: -2,
                "<key>root key</key><integer>-\(huge)</integer><key>loop end</key><integer>\(huge)</integer>"
                    + "<key>coarse tune</key><integer>500</integer>"))
        let top = "<key>voice count</key><integer>100000</integer><key>gain</key><real>1e300</real>"
        let preset = try F.decode(F.sampler(layers: layer, top: top))
        #expect(preset.voiceCount == 256 && preset.globals.gainDecibels == 12)
        let decoded = try #require(preset.layers.first)
        #expect(decoded.keyOffset == 127)
        let zone = try #require(decoded.zones.first)
        #expect(zone.rootKey == 0 && zone.loopEnd == nil && zone.coarseTuneSemitones == 127)
        #expect(preset.warnings.count == 6)
        // With the clamped offset only played key 0 (→ zone key 127) reaches the full-range zone.
        #expect(preset.coverageMap().first?.silentKeys == Array(1...127))
    }

    /// Every byte-level corruption of a real-sized preset either decodes or throws a
    /// `PresetError` that names the file; none may crash.
    @Test func corruptedPresetsNeverCrash() throws {
        let original = try F.decode(F.sampler(layers: PresetDecodingTests.articulatedLayer))
        #expect(original.layers.count == 1)
        let bytes = F.sampler(layers: PresetDecodingTests.articulatedLayer)
        var generator = SplitMix64(seed: 20_261_122)
        let variantCount = 600
        var decodedCount = 0
        var thrownCount = 0
        let replacements = Array("<>/0123456789-.e&;x\u{0}\"".utf8)
        for _ in 0..<variantCount {
            var mutated = bytes
            for _ in 0..<Int(generator.next() % 4 + 1) {
                let position = Int(generator.next() % UInt64(mutated.count))
                switch generator.next() % 3 {
                case 0: mutated[position] = replacements[Int(generator.next() % UInt64(replacements.count))]
                case 1: mutated.remove(at: position)
                default: mutated.removeSubrange(position..<mutated.count)
                }
                if mutated.isEmpty { break }
            }
            do {
                _ = try AUPreset.parse(data: mutated, path: "/fuzz.aupreset")
                decodedCount += 1
            } catch {
                #expect(error.description.hasPrefix("/fuzz.aupreset: "))
                thrownCount += 1
            }
        }
        #expect(decodedCount + thrownCount == variantCount)
        // Both outcomes occur, so the mutations reach the decoder as well as the XML parser.
        #expect(decodedCount > 0 && thrownCount > 0)
    }
}

/// A tiny seeded generator (SplitMix64) so the corruptions are the same on every run.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
