import SoundFont
import Testing

/// What the loader refuses (one line naming chunk and offset) and what it reads with a warning.
@Suite("SoundFont validation")
struct ValidationTests {
    typealias W = SoundFontWriter
    typealias G = SoundFontGenerator

    static func error(_ bytes: [UInt8]) -> SoundFontError? {
        do {
            _ = try SoundFontFile.parse(bytes: bytes, path: "bad.sf2")
            return nil
        } catch {
            return error
        }
    }

    @Test func notASoundFont() {
        let e = Self.error(Array("RIFF\u{4}\0\0\0WAVE".utf8))
        #expect(e?.description == "bad.sf2: at byte 0: not a SoundFont (no RIFF 'sfbk' header)")
        #expect(Self.error([]) != nil)
    }

    @Test func truncatedFileNamesTheChunkThatRunsOut() throws {
        let bytes = Fixtures.minimal().bytes()
        let e = try #require(Self.error(Array(bytes.prefix(bytes.count - 30))))
        #expect(e.chunk?.hasPrefix("pdta") == true || e.chunk == "LIST")
        #expect(e.byteOffset != nil && !e.description.contains("\n"))
        #expect(e.reason.contains("declares"))
    }

    @Test func riffSizeMismatchIsAWarning() throws {
        var w = Fixtures.minimal()
        w.riffSizeOverride = 1_000_000
        let font = try Fixtures.load(w)
        #expect(font.warnings.contains { $0.hasPrefix("RIFF at byte 0: the header says") })
        #expect(font.presets.count == 1)
    }

    /// Found by the fuzzer: a RIFF size below 4 made an invalid range.
    @Test func riffSizeTooSmallForItsFormType() throws {
        var w = Fixtures.minimal()
        w.riffSizeOverride = 2
        let e = try #require(Self.error(w.bytes()))
        #expect(e.description == "bad.sf2: RIFF at byte 0: a RIFF size of 2 bytes cannot hold its form type")
    }

    @Test func recordSizeMismatchIsAnError() throws {
        var w = Fixtures.minimal()
        w.withoutTerminal = ["pgen"]
        var bytes = w.bytes()
        // Grow pgen by 2 bytes (and its LIST and RIFF): 6 bytes is not a whole number of 4-byte records.
        let pgen = try #require(find("pgen", in: bytes))
        bytes[pgen + 4] += 2
        bytes.insert(contentsOf: [0, 0], at: pgen + 8)
        bump(&bytes, listOf: pgen, by: 2)
        let e = try #require(Self.error(bytes))
        #expect(e.chunk == "pdta/pgen" && e.byteOffset == pgen)
        #expect(e.reason == "6 bytes is not a whole number of 4-byte records")
    }

    @Test func missingTerminalRecordsAreTolerated() throws {
        var w = Fixtures.minimal(instrument: W.Zone(modulators: [W.Modulator(source: 0x0081, destination: 17, amount: 100)]))
        w.withoutTerminal = ["pgen", "pmod", "igen", "imod"]
        let font = try Fixtures.load(w)
        #expect(font.regions(ofPreset: 0).count == 1)
        #expect(font.warnings.filter { $0.contains("no terminal record (tolerated)") }.count == 4)
    }

    @Test func phdrWithoutTerminalKeepsItsLastPreset() throws {
        var w = Fixtures.minimal()
        w.presets.append(W.Header(name: "Second", program: 1, zones: w.presets[0].zones))
        w.withoutTerminal = ["phdr"]
        let font = try Fixtures.load(w)
        #expect(font.presets.map(\.name) == ["Piano", "Second"])
        #expect(font.regions(ofPreset: 1).count == 1)
        #expect(font.warnings == ["pdta/phdr: no terminal record; the last record 'Second' is read as a preset"])
    }

    @Test func unknownInfoChunksAreIgnoredSilently() throws {
        var w = Fixtures.minimal()
        w.extraInfo = [("DMOD", [1, 2, 3, 4]), ("ISFT", Array("Polyphone\0".utf8))]
        let font = try Fixtures.load(w)
        #expect(font.warnings.isEmpty && font.info.software == "Polyphone")
    }

    @Test func nonMonotonicBagIndicesAreAnError() throws {
        var w = Fixtures.minimal()
        w.presets.append(W.Header(name: "Second", program: 1, zones: w.presets[0].zones))
        var bytes = w.bytes()
        let phdr = try #require(find("phdr", in: bytes))
        bytes[phdr + 8 + 38 + 24] = 9  // second preset's bag index 1 → 9 (past the terminal's 2)
        let e = try #require(Self.error(bytes))
        #expect(e.chunk == "pdta/phdr" && e.reason.contains("record 2: bag index 2 is below the previous record's 9"))
    }

    @Test func badSamplesAreDroppedAndTheirZonesMute() throws {
        var w = Fixtures.minimal()
        w.samples = [Fixtures.sample("Zero", start: 50, end: 50), Fixtures.sample("Beyond", start: 0, end: 5_000), Fixtures.sample("Fine")]
        w.instruments[0].zones = (0..<3).map { W.Zone(generators: [Fixtures.gen(.sampleID, Int16($0))]) }
        let font = try Fixtures.load(w)
        #expect(font.samples.map(\.isPlayable) == [false, false, true])
        #expect(font.regions(ofPreset: 0).map(\.sample) == [2])
        #expect(font.warnings.count == 1 && font.warnings[0].hasPrefix("pdta/shdr: 2 samples cannot play: 'Zero' (invalid start/end 50–50"))
        #expect(throws: SoundFontError.self) { try font.sampleFrames(0) }
    }

    @Test func loopsAreSanitizedAsFluidSynthDoes() throws {
        var w = Fixtures.minimal()
        w.samples = [
            Fixtures.sample("Reversed", loop: (80, 20)), Fixtures.sample("Outside", loop: (20, 9_000)),
            Fixtures.sample("Disabled", loop: (30, 30)), Fixtures.sample("PastEnd", loop: (20, 120)),
        ]
        let font = try Fixtures.load(w)
        #expect(font.samples.map(\.loopStart) == [20, 20, 30, 20])
        #expect(font.samples.map(\.loopEnd) == [80, 100, 30, 120])  // past the sample but inside the pool: kept
        #expect(font.warnings == ["pdta/shdr: invalid loops sanitized as FluidSynth does in 2 samples: 'Reversed', 'Outside'"])
    }

    @Test func generatorsOutOfOrderOrAtTheWrongLevelAreDroppedWithOneWarning() throws {
        let preset = W.Zone(generators: [
            Fixtures.gen(.pan, 100), Fixtures.gen(.keyRange, W.range(0, 10)), Fixtures.gen(.overridingRootKey, 60),
            Fixtures.gen(.startAddressOffset, 4), Fixtures.gen(.pan, 200), (14, 5), (99, 1),
        ])
        let font = try Fixtures.load(Fixtures.minimal(preset: preset))
        let zone = try #require(font.presets.first?.zones.first)
        #expect(zone.generators[.pan] == 200 && zone.generators[.keyRange] == nil && zone.generators[.overridingRootKey] == nil)
        #expect(zone.generators[.startAddressOffset] == nil && zone.generators.count == 2)
        #expect(font.warnings.count == 1)
        #expect(font.warnings.first?.hasPrefix("preset 0:0 'Piano': ") == true)
        #expect(font.warnings.first?.contains("keyRange not at the start of its zone was discarded") == true)
        #expect(font.warnings.first?.contains("generator id 99 is not valid in a preset") == true)
    }

    @Test func generatorValuesOutOfRangeAreKept() throws {
        let instrument = W.Zone(generators: [Fixtures.gen(.initialFilterCutoff, 14_400), Fixtures.gen(.pan, 1_110), Fixtures.gen(.fineTune, 100)])
        let font = try Fixtures.load(Fixtures.minimal(instrument: instrument))
        let region = try #require(font.regions(ofPreset: 0).first)
        #expect(region.generators[.initialFilterCutoff] == 14_400 && region.generators[.pan] == 1_110 && region.generators[.fineTune] == 100)
        #expect(font.warnings.isEmpty)
    }

    @Test func invalidModulatorsAreDroppedLinkedOnesReported() throws {
        let mods = [
            W.Modulator(source: 0x0000, destination: 48, amount: 100),  // source 1 none
            W.Modulator(source: 0x0086, destination: 48, amount: 100),  // CC6 (data entry): invalid
            W.Modulator(source: 0x0081, destination: 0x8001, amount: 100),  // linked destination
            W.Modulator(source: 0x0081, destination: 99, amount: 100),  // not a generator
            W.Modulator(source: 0x0081, destination: 17, amount: 100, transform: 2),  // absolute value: inert
            W.Modulator(source: 0x0082, destination: 17, amount: 10),
            W.Modulator(source: 0x0082, destination: 17, amount: 20),  // identical: the later wins
        ]
        let font = try Fixtures.load(Fixtures.minimal(instrument: W.Zone(modulators: mods)))
        let zone = try #require(font.instruments.first?.zones.first)
        #expect(zone.modulators.map(\.amount) == [0, 20])
        #expect(font.unsupported.contains { $0.hasPrefix("linked modulators") })
        #expect(font.warnings.count == 1 && font.warnings[0].hasPrefix("instrument 0 'Piano Inst': "))
    }

    @Test func aBipolarNoneAmountSourceStillSwitchesADefaultOff() throws {
        // CC1 → vibLfoToPitch amount 0, amount source "none" with the bipolar bit: FluidSynth clears
        // the bit, so this is identical to the default and turns it off.
        let font = try Fixtures.load(Fixtures.minimal(instrument: W.Zone(modulators: [W.Modulator(source: 0x0081, destination: 6, amount: 0, amountSource: 0x0200)])))
        let region = try #require(font.regions(ofPreset: 0).first)
        #expect(!region.modulators.contains { $0.source.isController && $0.source.index == 1 })
        #expect(region.modulators.count == 8)
    }

    @Test func zonesPointingNowhereAreDropped() throws {
        var w = Fixtures.minimal()
        w.presets[0].zones.append(W.Zone(generators: [Fixtures.gen(.instrument, 7)]))
        w.instruments[0].zones.append(W.Zone(generators: [Fixtures.gen(.sampleID, 300)]))
        let font = try Fixtures.load(w)
        #expect(font.presets[0].zones.count == 1 && font.instruments[0].zones.count == 1)
        #expect(font.warnings.contains { $0.contains("a zone naming instrument 7 (there are 1) was dropped") })
        #expect(font.warnings.contains { $0.contains("a zone naming sample 300 (there are 1) was dropped") })
    }

    @Test func oddSampleChunkWithoutPadIsRead() throws {
        var w = Fixtures.minimal()
        w.sampleData = W.pcm(Fixtures.rampPoints) + [0x55]  // odd smpl; the writer pads it
        var bytes = w.bytes()
        // Remove the pad byte after smpl and shrink the LIST and RIFF sizes, as FluidR3Mono_GM.sf3 is laid out.
        let smpl = try #require(find("smpl", in: bytes))
        let end = smpl + 8 + w.sampleData.count
        bytes.remove(at: end)
        bump(&bytes, listOf: smpl, by: -1)
        let font = try SoundFontFile.parse(bytes: bytes, path: "odd.sf2")
        #expect(font.presets.count == 1 && font.warnings.isEmpty && font.poolFrames == 146)
    }

    @Test func sm24GivesTwentyFourBitFrames() throws {
        var w = Fixtures.minimal()
        w.sm24 = (0..<146).map { UInt8($0) }
        let font = try Fixtures.load(w)
        #expect(font.has24BitSamples)
        let frames = try font.sampleFrames(0)
        #expect(frames[3] == Float(Int32(3 * 300 - 15_000) << 8 | 3) / 8_388_608)
        w.version = (2, 1)
        let old = try Fixtures.load(w)
        #expect(!old.has24BitSamples && old.warnings.count == 1)
    }

    /// Offset of the first chunk with this id.
    func find(_ id: String, in bytes: [UInt8]) -> Int? {
        let needle = Array(id.utf8)
        return (0...(bytes.count - 4)).first { Array(bytes[$0..<$0 + 4]) == needle }
    }

    /// Changes the size of the RIFF and of the LIST holding the chunk at `offset` by `delta`.
    func bump(_ bytes: inout [UInt8], listOf offset: Int, by delta: Int) {
        func add(at position: Int) {
            let value = (0..<4).reduce(0) { $0 | Int(bytes[position + $1]) << (8 * $1) } + delta
            for i in 0..<4 { bytes[position + i] = UInt8((value >> (8 * i)) & 0xFF) }
        }
        add(at: 4)
        let list = (0..<offset).last { Array(bytes[$0..<$0 + 4]) == Array("LIST".utf8) }!
        add(at: list + 4)
    }
}
