import SoundFont
import Testing

/// A font written by the test's own writer reads back exactly: every generator at both levels,
/// every modulator field, ranges, sample headers, INFO.
@Suite("SoundFont round trip")
struct RoundTripTests {
    typealias W = SoundFontWriter
    typealias G = SoundFontGenerator

    /// Generators valid in an instrument zone other than the ranges and sampleID, each with its own value.
    static let instrumentGenerators: [(G, Int16)] = G.allCases.filter { !$0.isRange && !$0.isIndex }.enumerated().map {
        ($0.element, Int16($0.offset * 37 - 900))
    }
    static let presetGenerators = instrumentGenerators.filter { !$0.0.isInstrumentOnly }

    @Test func everyGeneratorAndRangeRoundTrips() throws {
        var instrumentZone = W.Zone(generators: [Fixtures.gen(.keyRange, W.range(10, 90)), Fixtures.gen(.velocityRange, W.range(5, 120))])
        instrumentZone.generators += Self.instrumentGenerators.map { Fixtures.gen($0.0, $0.1) }
        var presetZone = W.Zone(generators: [Fixtures.gen(.keyRange, W.range(20, 100))])
        presetZone.generators += Self.presetGenerators.map { Fixtures.gen($0.0, $0.1) }
        let font = try Fixtures.load(Fixtures.minimal(preset: presetZone, instrument: instrumentZone))
        #expect(font.warnings.isEmpty)
        let i = try #require(font.instruments.first?.zones.first)
        #expect(i.generators[.keyRange] == W.range(10, 90))
        #expect(i.generators[.velocityRange] == W.range(5, 120))
        for (g, amount) in Self.instrumentGenerators { #expect(i.generators[g] == amount, "\(g)") }
        #expect(i.sampleIndex == 0)
        let p = try #require(font.presets.first?.zones.first)
        #expect(p.generators[.keyRange] == W.range(20, 100) && p.generators[.velocityRange] == nil)
        for (g, amount) in Self.presetGenerators { #expect(p.generators[g] == amount, "\(g)") }
        #expect(p.instrumentIndex == 0)
        #expect(p.generators.count == Self.presetGenerators.count + 2)
    }

    @Test func modulatorFieldsRoundTrip() throws {
        let mods = [
            W.Modulator(source: 0x0502, destination: 48, amount: 480),  // velocity concave negative → attenuation
            W.Modulator(source: 0x00DB, destination: 16, amount: -200, amountSource: 0x0081),  // CC91 × CC1 → reverb
            W.Modulator(source: 0x020E, destination: 52, amount: 1200, amountSource: 0x0010),  // bend × sensitivity → fine tune
            W.Modulator(source: 0x0C02, destination: 8, amount: -2400),  // velocity switch → cutoff
        ]
        let font = try Fixtures.load(Fixtures.minimal(preset: W.Zone(modulators: [mods[1]]), instrument: W.Zone(modulators: mods)))
        let zone = try #require(font.instruments.first?.zones.first)
        #expect(zone.modulators.count == 4)
        for (read, written) in zip(zone.modulators, mods) {
            #expect(read.source.rawValue == written.source && read.destination.rawValue == Int(written.destination))
            #expect(read.amount == Int(written.amount) && read.amountSource.rawValue == written.amountSource && read.transform == 0)
        }
        #expect(zone.modulators[0].source.general == .noteOnVelocity && zone.modulators[0].source.curve == .concave)
        #expect(zone.modulators[0].source.isNegative && !zone.modulators[0].source.isBipolar)
        #expect(zone.modulators[1].source.isController && zone.modulators[1].source.index == 91)
        #expect(zone.modulators[2].source.isBipolar && zone.modulators[2].amountSource.general == .pitchWheelSensitivity)
        #expect(zone.modulators[3].source.curve == .switch)
        #expect(font.presets.first?.zones.first?.modulators.first?.amountSource.index == 1)
    }

    @Test func sampleHeadersAndInfoRoundTrip() throws {
        var w = Fixtures.minimal()
        w.samples[0] = W.Sample(
            name: "Bell C5", start: 0, end: 100, loopStart: 10, loopEnd: 90, rate: 32_000, pitch: 72, correction: -12, link: 0, type: 1)
        w.name = "Round Trip"
        w.version = (2, 1)
        let font = try Fixtures.load(w)
        let s = try #require(font.samples.first)
        #expect(font.samples.count == 1)
        #expect(s.name == "Bell C5" && s.start == 0 && s.end == 100 && s.frameCount == 100)
        #expect(s.loopStart == 10 && s.loopEnd == 90 && s.sampleRate == 32_000)
        #expect(s.originalPitch == 72 && s.pitchCorrection == -12 && s.channel == .mono && s.isPlayable)
        #expect(font.info.name == "Round Trip" && font.info.versionText == "2.01" && font.info.soundEngine == "EMU8000")
        let frames = try font.sampleFrames(0)
        #expect(frames.count == 100)
        #expect(frames[0] == -15_000 / 32_768 && frames[99] == Float(99 * 300 - 15_000) / 32_768)
    }

    @Test func globalZonesAndSeveralPresets() throws {
        var w = Fixtures.minimal()
        let global = W.Zone(generators: [Fixtures.gen(.keyRange, W.range(0, 60)), Fixtures.gen(.initialAttenuation, 30)])
        w.instruments[0].zones.insert(global, at: 0)
        w.presets.append(
            W.Header(name: "Kit", bank: 128, program: 25, zones: [W.Zone(generators: [Fixtures.gen(.pan, -200)]), w.presets[0].zones[0]]))
        let font = try Fixtures.load(w)
        #expect(font.presets.map(\.name) == ["Piano", "Kit"])
        #expect(font.presets[1].bank == 128 && font.presets[1].program == 25)
        #expect(font.presets[1].global.generators[.pan] == -200 && font.presets[1].zones.count == 1)
        #expect(font.instruments[0].global.generators[.initialAttenuation] == 30)
        #expect(font.instruments[0].global.generators[.keyRange] == W.range(0, 60))
        #expect(font.preset(bank: 128, program: 25)?.name == "Kit")
    }
}
