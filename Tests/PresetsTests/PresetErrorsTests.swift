import AudioTestSupport
import Presets
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Bad input gives a typed error naming the file, the key and the reason — never a crash.
@Suite("Preset errors")
struct PresetErrorsTests {
    typealias F = PresetFixtures

    @Test func anEffectPresetIsNotASamplerPreset() {
        let effect = F.plist(
            """
            <dict><key>data</key><data>AAAAAA==</data><key>manufacturer</key><integer>1634758764</integer>
            <key>name</key><string>EQ</string><key>subtype</key><integer>1851942257</integer>
            <key>type</key><integer>1635083896</integer><key>version</key><integer>0</integer></dict>
            """)
        let error = F.error(effect, path: "/p/EQ.aupreset")
        #expect(
            error
                == .notASamplerPreset(
                    path: "/p/EQ.aupreset", reason: "no Instrument dictionary (type 'aufx', subtype 'nbeq')"))
        #expect(
            error?.description
                == "/p/EQ.aupreset: not an AUSampler preset: no Instrument dictionary (type 'aufx', subtype 'nbeq')")
    }

    @Test func aWronglyTypedValueNamesItsKeyPath() {
        let bytes = F.sampler(
            layers: F.layer(zones: F.zone(id: 0, waveform: 1, "<key>root key</key><string>C4</string>")))
        let error = F.error(bytes)
        #expect(
            error
                == .invalidValue(
                    path: "/presets/Test.aupreset", keyPath: "Instrument.Layers[0].Zones[0].root key",
                    expected: "an integer",
                    found: "string \"C4\""))
        #expect(
            error?.description
                == "/presets/Test.aupreset: Instrument.Layers[0].Zones[0].root key: expected an integer, found string \"C4\""
        )
    }

    @Test func aFractionalKeyAndAWrongContainerAreErrors() {
        let fractional = F.sampler(
            layers: F.layer(zones: F.zone(id: 0, waveform: 1, "<key>max key</key><real>60.5</real>")))
        #expect(
            F.error(fractional)
                == .invalidValue(
                    path: "/presets/Test.aupreset", keyPath: "Instrument.Layers[0].Zones[0].max key",
                    expected: "an integer",
                    found: "real 60.5"))
        let layersNotArray = F.plist("<dict><key>Instrument</key><dict><key>Layers</key><dict/></dict></dict>")
        #expect(
            F.error(layersNotArray)
                == .invalidValue(
                    path: "/presets/Test.aupreset", keyPath: "Instrument.Layers", expected: "an array", found: "dict"))
        let rootArray = F.plist("<array/>")
        #expect(
            F.error(rootArray)
                == .invalidValue(path: "/presets/Test.aupreset", keyPath: "(root)", expected: "dict", found: "array"))
    }

    @Test func loadReadsAFileAndReportsAMissingOne() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/Sine.aupreset"
        try directory.write(F.sampler(layers: F.layer(zones: F.zone(id: 0, waveform: -2))), to: "Sine.aupreset")
        let preset = try AUPreset.load(path: path)
        #expect(preset.path == path)
        #expect(preset.layers.first?.zones.first?.usesBuiltInSine == true)
        let missing = directory.path + "/nope.aupreset"
        #expect(throws: PresetError.unreadable(path: missing, reason: "No such file or directory")) {
            try AUPreset.load(path: missing)
        }
        #expect(throws: PresetError.unreadable(path: directory.path, reason: "is a directory, not a regular file; give the path of a preset")) {
            try AUPreset.load(path: directory.path)
        }
    }
}

@Suite("Global parameter blob")
struct GlobalParameterBlobTests {
    typealias F = PresetFixtures
    /// scope 0, element 0, 4 params: 900 = −8 dB, 901 = +2 st, 902 = −2.2e−5 ct, 903 = −1 (Float32),
    /// split over lines and tabs as AU writes long data.
    static let blob =
        "<key>data</key><data>\n\tAAAAAAAAAAAAAAAEAAADhMEAAAAAAAOF\n\tQAAAAAAAA4a3uIykAAADh7+AAAA=\n\t</data>"

    @Test func theDataBlobIsTheFallbackForAbsentTopLevelGlobals() throws {
        let preset = try F.decode(F.sampler(layers: F.layer(zones: F.zone(id: 0, waveform: -2)), top: Self.blob))
        #expect(
            preset.globals
                == GlobalParameters(
                    gainDecibels: -8, pan: -1, coarseTuneSemitones: 2, fineTuneCents: Double(Float(-2.2e-5))))
        #expect(preset.warnings.isEmpty)
    }

    @Test func topLevelGlobalsWinOverTheBlob() throws {
        let top = Self.blob + "<key>gain</key><real>0</real><key>pan</key><integer>1</integer>"
        let preset = try F.decode(F.sampler(layers: F.layer(zones: F.zone(id: 0, waveform: -2)), top: top))
        #expect(preset.globals.gainDecibels == 0 && preset.globals.pan == 1)
        #expect(preset.globals.coarseTuneSemitones == 2)
    }

    @Test func aTruncatedBlobIsIgnoredWithAWarning() throws {
        let top = "<key>data</key><data>AAAAAAAAAAAAAAAEAAADhA==</data>"
        let preset = try F.decode(F.sampler(layers: F.layer(zones: F.zone(id: 0, waveform: -2)), top: top))
        #expect(preset.globals == GlobalParameters())
        #expect(preset.warnings == ["data: 16-byte parameter blob has an unexpected layout; ignored"])
    }
}
