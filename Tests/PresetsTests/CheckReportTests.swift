import Presets
import Testing

@Suite("Coverage map and check report")
struct CheckReportTests {
    typealias F = PresetFixtures

    /// Two zones stacked on C4–B4, one disabled, a key-limited layer with a key offset.
    static let preset: [UInt8] = F.sampler(
        layers: F.layer(
            id: 1,
            extra: "<key>min key</key><integer>48</integer><key>max key</key><integer>83</integer>"
                + "<key>key offset</key><integer>12</integer><key>Connections</key><array/>",
            zones: F.zone(
                id: 3, waveform: 1,
                "<key>min key</key><integer>60</integer><key>max key</key><integer>95</integer>"
                    + "<key>max vel</key><integer>99</integer><key>root key</key><integer>72</integer>"
                    + "<key>loop enabled</key><true/><key>loop end</key><integer>999</integer>")
                + F.zone(
                    id: 5, waveform: -2,
                    "<key>min key</key><integer>72</integer><key>max key</key><integer>83</integer>")
                + "<dict><key>ID</key><integer>9</integer><key>enabled</key><false/><key>waveform</key><integer>2</integer></dict>"
        ),
        references: F.reference(1, "/Users/x/Sounds/a.wav") + F.reference(2, "/nowhere/b.wav"), name: "Small")

    @Test func coverageCountsZonesPerPlayedNoteThroughTheKeyOffset() throws {
        let coverage = try #require(try F.decode(Self.preset).coverageMap().first)
        #expect(coverage.layerID == 1)
        // Played 48 + offset 12 = zone key 60: zone 3 only, below velocity 100.
        #expect(coverage.count(key: 48, velocity: 99) == 1 && coverage.count(key: 48, velocity: 100) == 0)
        // Played 60 → zone key 72: zones 3 and 5 stacked.
        #expect(coverage.count(key: 60, velocity: 1) == 2 && coverage.count(key: 60, velocity: 127) == 1)
        // Outside the layer's 48…83 nothing sounds, whatever the zones say.
        #expect(coverage.count(key: 47, velocity: 64) == 0 && coverage.count(key: 84, velocity: 64) == 0)
        #expect(coverage.count(key: 200, velocity: 64) == 0)
        #expect(coverage.velocityBands == [0...99, 100...127])
        #expect(coverage.silentKeys == Array(0...47) + Array(84...127))
    }

    @Test func reportListsLayersZonesMapSamplesAndWarnings() throws {
        let preset = try F.decode(Self.preset, path: "/p/Small.aupreset")
        let resolver = SamplePathResolver(
            presetPath: preset.path, userDirectories: [], fileExists: { $0 == "/p/Sounds/a.wav" })
        let report = preset.checkReport(resolver: resolver) { ["44100 Hz, \($0.count) chars"] }
        let dots = { (count: Int) in String(repeating: ".", count: count) }
        let ruler =
            "C-1         C0          C1          C2          C3          C4          C5          C6          C7          C8          C9"
        let expected = [
            "Preset: Small (/p/Small.aupreset)",
            "Instrument: Default Instrument",
            "Globals: gain 0 dB, pan 0, coarse tune 0 st, fine tune 0 ct, voice count 64",
            "Layer 1: keys 48-83, key offset 12, gain 0 dB, trigger normal, 3 zones (2 enabled)",
            "  envelope 0: delay 0 s, attack 0 s, hold 0 s, decay 0 s, sustain 1, release 0 s",
            "  filter: off, cutoff 20000 Hz, resonance 0 dB",
            "  LFO 0: triangle, 3 Hz, delay 0 s",
            "  connections: 0, stored",
            "  zones:",
            "    zone 3: keys 60-95 (C4..B6), vel 0-99, root 72 (C5), Sample:1, loop file..<1000",
            "    zone 5: keys 72-83 (C5..B5), vel 0-127, root from file (else 60), built-in sine, no loop",
            "    zone 9 DISABLED: keys 0-127 (C-1..G9), vel 0-127, root from file (else 60), Sample:2, no loop",
            "  keyboard map (letter = the zone sounding, digit = zones stacked, . = silent):",
            "                " + ruler,
            "    vel   0- 99 " + dots(48) + String(repeating: "a", count: 12) + String(repeating: "2", count: 12)
                + String(repeating: "a", count: 12) + dots(44),
            "    vel 100-127 " + dots(60) + String(repeating: "b", count: 12) + dots(56),
            "                a = zone 3, b = zone 5",
            "Samples (2 referenced, 1 used by enabled zones):",
            "  Sample:1  /Users/x/Sounds/a.wav",
            "    found: /p/Sounds/a.wav",
            "      via TN2283 fallback 'Sounds/a.wav' under the preset's directory or a parent /p",
            "      44100 Hz, 15 chars",
            "  Sample:2 (unused, not loaded)  /nowhere/b.wav",
            "    not found (harmless: unused); tried:",
            "      /nowhere/b.wav",
            "Warnings: none",
        ]
        let lines = report.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines == expected + [""])
    }
}
