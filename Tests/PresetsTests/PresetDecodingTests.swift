import Presets
import Testing

/// An AU-Lab-style preset decodes to exactly the values written.
@Suite("Preset decoding")
struct PresetDecodingTests {
    static let articulatedLayer = """
        <dict>
            <key>Amplifier</key><dict><key>ID</key><integer>0</integer><key>enabled</key><true/></dict>
            <key>Connections</key>
            <array>
                <dict>
                    <key>ID</key><integer>0</integer><key>bipolar</key><false/>
                    <key>control</key><integer>0</integer><key>destination</key><integer>816840704</integer>
                    <key>enabled</key><true/><key>inverse</key><false/><key>scale</key><real>12800</real>
                    <key>source</key><integer>300</integer><key>transform</key><integer>1</integer>
                </dict>
                <dict>
                    <key>ID</key><integer>9</integer><key>control</key><integer>0</integer>
                    <key>destination</key><integer>1095761920</integer><key>enabled</key><true/>
                    <key>inverse</key><false/><key>max value</key><real>2400</real>
                    <key>min value</key><real>-2400</real><key>name</key><string>Cutoff</string>
                    <key>source</key><integer>74</integer><key>transform</key><integer>1</integer>
                </dict>
            </array>
            <key>Envelopes</key>
            <array>
                <dict>
                    <key>ID</key><integer>0</integer>
                    <key>Stages</key>
                    <array>
                        <dict><key>curve</key><integer>20</integer><key>stage</key><integer>0</integer><key>time</key><real>0.01</real></dict>
                        <dict><key>curve</key><integer>22</integer><key>stage</key><integer>1</integer><key>time</key><real>0.25</real></dict>
                        <dict><key>curve</key><integer>20</integer><key>stage</key><integer>2</integer><key>time</key><real>0.05</real></dict>
                        <dict><key>curve</key><integer>20</integer><key>stage</key><integer>3</integer><key>time</key><real>1.5</real></dict>
                        <dict><key>level</key><real>0.6</real><key>stage</key><integer>4</integer></dict>
                        <dict><key>curve</key><integer>20</integer><key>stage</key><integer>5</integer><key>time</key><real>0.4</real></dict>
                        <dict><key>curve</key><integer>20</integer><key>stage</key><integer>6</integer><key>time</key><real>0.004999999888241291</real></dict>
                    </array>
                    <key>enabled</key><true/>
                </dict>
            </array>
            <key>Filters</key>
            <dict>
                <key>ID</key><integer>0</integer><key>cutoff</key><real>9012</real><key>enabled</key><true/>
                <key>resonance</key><real>5.6</real><key>type</key><integer>40</integer>
            </dict>
            <key>ID</key><integer>0</integer>
            <key>LFOs</key>
            <array>
                <dict><key>ID</key><integer>0</integer><key>delay</key><real>0.5</real><key>enabled</key><true/>
                <key>rate</key><real>4.8</real><key>waveform</key><integer>25</integer></dict>
            </array>
            <key>Oscillator</key><dict><key>ID</key><integer>0</integer><key>enabled</key><true/></dict>
            <key>Zones</key>
            <array>
                <dict>
                    <key>ID</key><integer>1</integer><key>enabled</key><true/><key>fine tune</key><real>23</real>
                    <key>gain</key><real>-9</real><key>loop enabled</key><true/><key>loop end</key><integer>11999</integer>
                    <key>loop start</key><integer>100</integer><key>max key</key><integer>72</integer>
                    <key>min key</key><integer>48</integer><key>name</key><string>lead.aif</string>
                    <key>output</key><integer>0</integer><key>pitch tracking</key><false/>
                    <key>root key</key><integer>60</integer><key>waveform</key><integer>268435457</integer>
                </dict>
            </array>
        </dict>
        """

    @Test func decodesGlobalsLayerArticulationAndZoneExactly() throws {
        let preset = try PresetFixtures.decode(
            PresetFixtures.sampler(
                layers: Self.articulatedLayer,
                references: PresetFixtures.reference(268_435_457, "/Users/a/Library/Audio/Sounds/lead.aif"),
                top: """
                    <key>AU version</key><real>1</real>
                    <key>coarse tune</key><integer>-2</integer><key>fine tune</key><real>12.5</real>
                    <key>gain</key><real>-8</real><key>pan</key><real>-1</real>
                    <key>voice count</key><integer>32</integer>
                    """, name: "Lead"))
        #expect(preset.name == "Lead")
        #expect(preset.instrumentName == "Default Instrument")
        #expect(
            preset.globals == GlobalParameters(gainDecibels: -8, pan: -1, coarseTuneSemitones: -2, fineTuneCents: 12.5))
        #expect(preset.voiceCount == 32)
        #expect(preset.fileReferences == [268_435_457: "/Users/a/Library/Audio/Sounds/lead.aif"])
        #expect(preset.warnings.isEmpty)
        #expect(preset.layers.count == 1)
        let layer = try #require(preset.layers.first)
        #expect(layer.id == 0 && layer.minKey == 0 && layer.maxKey == 127 && layer.keyOffset == 0)
        #expect(layer.triggerMode == .normal)
        #expect(layer.filter == Filter(enabled: true, cutoffHz: 9012, resonanceDecibels: 5.6, type: 40))
        #expect(
            layer.envelopes == [
                Envelope(
                    id: 0, delaySeconds: 0.01, attackSeconds: 0.25, holdSeconds: 0.05, decaySeconds: 1.5,
                    sustainLevel: 0.6, releaseSeconds: 0.4, fastReleaseSeconds: 0.004999999888241291, attackCurve: 22,
                    decayCurve: 20, releaseCurve: 20)
            ])
        #expect(layer.lfos == [LFO(id: 0, rateHz: 4.8, delaySeconds: 0.5, waveform: .sine)])
        #expect(!layer.usesDefaultConnections)
        #expect(layer.connections.count == 2)
        let keyToPitch = layer.connections[0]
        #expect(keyToPitch.source == .key && keyToPitch.control == .constant && keyToPitch.destination == .pitch)
        #expect(keyToPitch.outputRange == (0, 12800))
        let cutoff = layer.connections[1]
        #expect(cutoff.id == 9 && cutoff.name == "Cutoff" && cutoff.source == .controller(74))
        #expect(cutoff.destination == .filterCutoff && cutoff.scale == nil)
        #expect(cutoff.outputRange == (-2400, 2400))
        #expect(
            layer.zones == [
                Zone(
                    id: 1, name: "lead.aif", waveform: 268_435_457, rootKey: 60, minKey: 48, maxKey: 72,
                    loopEnabled: true, loopStart: 100, loopEnd: 12000, gainDecibels: -9, fineTuneCents: 23,
                    pitchTracking: false)
            ])
        #expect(preset.usedWaveforms == [268_435_457])
    }

    @Test func absentKeysTakeTheDocumentedDefaults() throws {
        let preset = try PresetFixtures.decode(
            PresetFixtures.sampler(layers: PresetFixtures.layer(zones: PresetFixtures.zone(id: 0, waveform: -2))))
        #expect(preset.globals == GlobalParameters())
        #expect(preset.voiceCount == 64)
        let layer = try #require(preset.layers.first)
        #expect(layer.filter == Filter(enabled: false, cutoffHz: 20000, resonanceDecibels: 0, type: nil))
        #expect(layer.envelopes == [Envelope(id: 0)])
        #expect(layer.ampEnvelope?.sustainLevel == 1)
        #expect(layer.lfos == [LFO(id: 0, rateHz: 3, delaySeconds: 0, waveform: .triangle)])
        #expect(layer.usesDefaultConnections)
        #expect(layer.connections == Connection.dlsDefaults(layerID: 0))
        let zone = try #require(layer.zones.first)
        #expect(zone.usesBuiltInSine)
        #expect(zone.rootKey == nil)
        #expect(zone.minKey == 0 && zone.maxKey == 127 && zone.minVelocity == 0 && zone.maxVelocity == 127)
        #expect(zone.loopStart == nil && zone.loopEnd == nil && !zone.loopEnabled)
        #expect(zone.gainDecibels == 0 && zone.coarseTuneSemitones == 0 && zone.fineTuneCents == 0)
        #expect(zone.pitchTracking)
        #expect(preset.usedWaveforms.isEmpty)
        #expect(preset.warnings.isEmpty)
    }

    @Test func anEmptyConnectionsArrayMeansNoConnections() throws {
        let preset = try PresetFixtures.decode(
            PresetFixtures.sampler(
                layers: PresetFixtures.layer(
                    extra: "<key>Connections</key><array/>", zones: PresetFixtures.zone(id: 0, waveform: -2))))
        #expect(preset.layers.first?.connections == [])
        #expect(preset.layers.first?.usesDefaultConnections == false)
    }

    @Test func nameFallsBackToInstrumentNameThenFileName() throws {
        let noTopName = PresetFixtures.plist(
            """
            <dict><key>Instrument</key><dict><key>Layers</key><array/><key>name</key><string>Trombone</string></dict></dict>
            """)
        #expect(try PresetFixtures.decode(noTopName).name == "Trombone")
        let noNames = PresetFixtures.plist("<dict><key>Instrument</key><dict/></dict>")
        let preset = try PresetFixtures.decode(noNames, path: "/x/My Piano.aupreset")
        #expect(preset.name == "My Piano")
        #expect(preset.warnings == ["Instrument.Layers: no layers: the preset makes no sound"])
    }
}
