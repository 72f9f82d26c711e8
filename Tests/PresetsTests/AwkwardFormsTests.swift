import Presets
import Testing

/// The odd forms real presets contain (format notes §10), each decoded to exact values.
@Suite("Awkward preset forms")
struct AwkwardFormsTests {
    typealias F = PresetFixtures

    @Test func integerAndRealAreSwappedBothWays() throws {
        let layer = F.layer(
            extra: """
                <key>Connections</key>
                <array>
                    <dict><key>ID</key><integer>0</integer><key>destination</key><real>1343225856</real>
                    <key>scale</key><integer>-96</integer><key>source</key><real>301</real>
                    <key>transform</key><real>2</real><key>inverse</key><true/></dict>
                    <dict><key>ID</key><integer>1</integer><key>destination</key><real>818937856</real>
                    <key>max value</key><integer>1</integer><key>min value</key><integer>0</integer>
                    <key>source</key><integer>1</integer></dict>
                </array>
                <key>Envelopes</key><array><dict><key>ID</key><integer>0</integer><key>Stages</key><array>
                    <dict><key>stage</key><integer>5</integer><key>time</key><integer>3</integer></dict>
                    <dict><key>level</key><integer>0</integer><key>stage</key><real>4</real></dict>
                </array></dict></array>
                <key>Filters</key><dict><key>cutoff</key><integer>125</integer><key>resonance</key><integer>-3</integer></dict>
                """,
            zones: F.zone(
                id: 1, waveform: -2, "<key>root key</key><real>69</real><key>fine tune</key><integer>-7</integer>"))
        let preset = try F.decode(F.sampler(layers: layer, top: "<key>fine tune</key><integer>5</integer>"))
        #expect(preset.globals.fineTuneCents == 5)
        let decoded = try #require(preset.layers.first)
        let gain = decoded.connections[0]
        #expect(gain.destination == .ampGain && gain.source == .velocity && gain.transform == .concave)
        #expect(gain.inverse && gain.scale == -96 && gain.outputRange == (0, -96))
        // 0x30D0_0000 (sample-start factor) is a real code the sampler does not model.
        #expect(decoded.connections[1].destination == .unknown(818_937_856))
        #expect(decoded.connections[1].outputRange == (0, 1))
        #expect(decoded.ampEnvelope?.releaseSeconds == 3)
        #expect(decoded.ampEnvelope?.sustainLevel == 0)
        #expect(decoded.filter.cutoffHz == 125 && decoded.filter.resonanceDecibels == -3)
        #expect(decoded.zones.first?.rootKey == 69)
        #expect(decoded.zones.first?.fineTuneCents == -7)
        #expect(
            preset.warnings == [
                "Instrument.Layers[0].Connections[1]: unknown destination code 818937856 (0x30D00000); connection ignored"
            ])
    }

    @Test func disabledZonesAndNonContiguousIDsAreKeptInFileOrder() throws {
        let zones =
            F.zone(id: 10, waveform: 3, "<key>max key</key><integer>59</integer>")
            + F.zone(id: 2, waveform: 1, "<key>min key</key><integer>60</integer>")
                + """
                <dict><key>ID</key><integer>7</integer><key>enabled</key><false/><key>waveform</key><integer>2</integer></dict>
                """
        let preset = try F.decode(
            F.sampler(
                layers: F.layer(zones: zones),
                references: F.reference(1, "a.wav") + F.reference(2, "b.wav") + F.reference(3, "c.wav")))
        let layer = try #require(preset.layers.first)
        #expect(layer.zones.map(\.id) == [10, 2, 7])
        #expect(layer.zones.map(\.enabled) == [true, true, false])
        #expect(layer.enabledZones.map(\.id) == [10, 2])
        #expect(layer.zones[2].matches(key: 60, velocity: 100) == false)
        #expect(layer.zones[0].matches(key: 59, velocity: 0) && !layer.zones[0].matches(key: 60, velocity: 1))
        // Sample:2 is only used by the disabled zone, so it is not needed.
        #expect(preset.usedWaveforms == [1, 3])
    }

    @Test func twoLayersKeepTheirIDsInConnectionCodes() throws {
        let connection = """
            <key>Connections</key><array><dict><key>ID</key><integer>0</integer>
            <key>destination</key><integer>816840960</integer><key>scale</key><real>12800</real>
            <key>source</key><integer>300</integer></dict></array>
            """
        let layers =
            F.layer(
                id: 1,
                extra: connection + "<key>key offset</key><integer>48</integer><key>gain</key><real>8.1</real>"
                    + "<key>min key</key><integer>12</integer><key>max key</key><integer>12</integer>",
                zones: F.zone(id: 0, waveform: -2))
            + F.layer(id: 2, extra: "<key>trigger mode</key><integer>11</integer>", zones: F.zone(id: 0, waveform: -2))
        let preset = try F.decode(F.sampler(layers: layers))
        #expect(preset.layers.map(\.id) == [1, 2])
        let first = preset.layers[0]
        #expect(first.minKey == 12 && first.maxKey == 12 && first.keyOffset == 48 && first.gainDecibels == 8.1)
        #expect(first.zoneKey(forPlayedKey: 12) == 60)
        #expect(first.zoneKey(forPlayedKey: 11) == nil && first.zoneKey(forPlayedKey: 13) == nil)
        #expect(first.connections.first?.destination == .pitch)
        #expect(first.connections.first?.destinationLayerID == 1)
        #expect(first.triggerMode == .normal)
        let second = preset.layers[1]
        #expect(second.triggerMode == .oneShot)
        #expect(second.usesDefaultConnections)
        #expect(
            second.connections.first { $0.source == .envelope(layerID: 2, index: 0) }?.destinationCode == 0x5010_0200)
        #expect(preset.warnings.isEmpty)
    }

    @Test func unknownTriggerModeIsKeptRawWithAWarning() throws {
        let preset = try F.decode(
            F.sampler(
                layers: F.layer(
                    id: 3, extra: "<key>trigger mode</key><integer>5</integer>", zones: F.zone(id: 0, waveform: -2))))
        #expect(preset.layers.first?.triggerMode == .unknown(5))
        #expect(preset.warnings == ["Instrument.Layers[0].trigger mode: unknown value 5; notes are released normally"])
    }

    @Test func junkAndUnusedFileReferencesAreTolerated() throws {
        let references =
            "<key>New item</key><string></string>" + F.reference(1, "/nowhere/missing.wav")
            + "<key>Sample:x</key><string>y.wav</string>" + F.reference(2, "/Users/a/Sounds/used.wav")
        let preset = try F.decode(F.sampler(layers: F.layer(zones: F.zone(id: 1, waveform: 2)), references: references))
        #expect(preset.fileReferences == [1: "/nowhere/missing.wav", 2: "/Users/a/Sounds/used.wav"])
        #expect(preset.usedWaveforms == [2])
        #expect(
            preset.warnings == [
                "file-references.New item: ignored: not a \"Sample:<number>\" key",
                "file-references.Sample:x: ignored: not a \"Sample:<number>\" key",
            ])
    }

    @Test func aZoneWithoutAReferenceIsWarnedAbout() throws {
        let preset = try F.decode(F.sampler(layers: F.layer(zones: F.zone(id: 4, waveform: 9))))
        #expect(
            preset.warnings == ["layer 0 zone 4: waveform 9: no file-references entry \"Sample:9\"; the zone is silent"]
        )
    }

    @Test func keyAndVelocityRangesAreClampedAndLoopEndMadeExclusive() throws {
        let zones =
            F.zone(
                id: 1, waveform: -2, "<key>max key</key><integer>128</integer><key>min vel</key><integer>90</integer>")
            + F.zone(
                id: 2, waveform: -2,
                "<key>max vel</key><integer>89</integer><key>min key</key><integer>-5</integer>"
                    + "<key>loop end</key><integer>99</integer><key>loop start</key><integer>10</integer>")
        let preset = try F.decode(F.sampler(layers: F.layer(zones: zones)))
        let decoded = try #require(preset.layers.first?.zones)
        #expect(decoded[0].maxKey == 127 && decoded[0].minVelocity == 90 && decoded[0].maxVelocity == 127)
        #expect(decoded[1].minKey == 0 && decoded[1].maxVelocity == 89)
        #expect(decoded[1].loopStart == 10 && decoded[1].loopEnd == 100)
        // 128 is a real-file idiom for "to the top": clamped silently; −5 is not.
        #expect(preset.warnings == ["Instrument.Layers[0].Zones[1].min key: -5 is outside 0…127; using 0"])
    }

    @Test func unsupportedArticulationIsWarnedAbout() throws {
        let extra = """
            <key>Connections</key><array><dict><key>ID</key><integer>3</integer>
            <key>destination</key><integer>1095761920</integer><key>scale</key><real>2400</real>
            <key>source</key><integer>320</integer></dict></array>
            <key>Envelopes</key><array><dict><key>ID</key><integer>0</integer></dict><dict><key>ID</key><integer>1</integer></dict><dict><key>ID</key><integer>2</integer></dict></array>
            <key>LFOs</key><array><dict><key>ID</key><integer>0</integer><key>waveform</key><integer>27</integer></dict></array>
            """
        let preset = try F.decode(F.sampler(layers: F.layer(extra: extra, zones: F.zone(id: 0, waveform: -2))))
        let layer = try #require(preset.layers.first)
        #expect(layer.connections.first?.source == .unknown(320))
        #expect(layer.envelopes.map(\.id) == [0, 1, 2])
        #expect(layer.lfos.first?.waveform == .unknown(27))
        #expect(
            preset.warnings == [
                "Instrument.Layers[0].Connections[0]: unknown source code 320; connection ignored",
                "Instrument.Layers[0].Envelopes[2]: envelope ID 2 is neither the amp (0) nor the filter (1) envelope; not applied",
                "Instrument.Layers[0].LFOs[0].waveform: unknown LFO waveform 27; a triangle is played",
            ])
    }

    @Test func wrongSubtypeIsOnlyAWarning() throws {
        let preset = try F.decode(F.sampler(layers: F.layer(zones: F.zone(id: 0, waveform: -2)), subtype: 1))
        #expect(preset.layers.count == 1)
        #expect(preset.warnings == ["subtype: 1 is not the AUSampler ('samp'); loading anyway"])
    }
}
