import SoundFont
import Testing

/// The combination rules (spec §8.5, §9.4, §9.5) on hand-made zones, with FluidSynth 2.3's choices.
@Suite("SoundFont combination rules")
struct CombinationTests {
    typealias W = SoundFontWriter
    typealias G = SoundFontGenerator
    typealias C = SoundFontCombination

    static func zone(_ generators: [(G, Int16)] = [], _ modulators: [SoundFontModulator] = []) -> SoundFontZone {
        var set = SoundFontGenerators()
        for (g, v) in generators { set[g] = v }
        return SoundFontZone(generators: set, modulators: modulators)
    }

    static func generators(_ pg: SoundFontZone, _ pz: SoundFontZone, _ ig: SoundFontZone, _ iz: SoundFontZone) -> SoundFontEffectiveGenerators {
        C.generators(presetGlobal: pg, presetZone: pz, instrumentGlobal: ig, instrumentZone: iz)
    }

    @Test func instrumentLocalReplacesGlobalReplacesDefault() {
        let empty = Self.zone()
        let global = Self.zone([(.attackVolEnv, -1200), (.pan, 100)])
        let local = Self.zone([(.attackVolEnv, 0)])
        let values = Self.generators(empty, empty, global, local)
        #expect(values[.attackVolEnv] == 0)  // local wins
        #expect(values[.pan] == 100)  // global where local is silent
        #expect(values[.releaseVolEnv] == -12_000 && values[.initialFilterCutoff] == 13_500 && values[.scaleTuning] == 100)
        #expect(values[.overridingRootKey] == -1 && values[.keyNumber] == -1 && values[.velocity] == -1)
        #expect(Self.generators(empty, empty, empty, empty) == SoundFontEffectiveGenerators())
    }

    @Test func presetValuesAreAddedLocalReplacingGlobal() {
        let instrument = Self.zone([(.initialAttenuation, 100), (.coarseTune, 2), (.initialFilterCutoff, 9_000)])
        let presetGlobal = Self.zone([(.initialAttenuation, 20), (.coarseTune, 12), (.releaseVolEnv, 1_200)])
        let presetLocal = Self.zone([(.initialAttenuation, 50), (.initialFilterCutoff, -3_000)])
        let values = Self.generators(presetGlobal, presetLocal, Self.zone(), instrument)
        #expect(values[.initialAttenuation] == 150)  // 100 + local 50 (global 20 superseded)
        #expect(values[.coarseTune] == 14)  // 2 + global 12
        #expect(values[.initialFilterCutoff] == 6_000)  // relative, may go "out of range": clamped at use
        #expect(values[.releaseVolEnv] == -12_000 + 1_200)  // added to the default
    }

    @Test func rangesIntersectAndLocalZonesInheritTheGlobalRange() {
        let pg = Self.zone([(.keyRange, W.range(30, 90))])
        let pz = Self.zone([(.velocityRange, W.range(0, 100))])
        let ig = Self.zone([(.velocityRange, W.range(50, 127))])
        let iz = Self.zone([(.keyRange, W.range(60, 127))])
        let (key, velocity) = C.ranges(presetGlobal: pg, presetZone: pz, instrumentGlobal: ig, instrumentZone: iz)
        #expect(key == 60...90)
        #expect(velocity == 50...100)
        let disjoint = C.ranges(presetGlobal: Self.zone(), presetZone: Self.zone([(.keyRange, W.range(0, 40))]), instrumentGlobal: Self.zone(), instrumentZone: iz)
        #expect(disjoint.key == nil)
    }

    @Test func regionsLeaveOutPairsWhoseRangesDoNotMeet() throws {
        var w = Fixtures.minimal(preset: W.Zone(generators: [Fixtures.gen(.keyRange, W.range(0, 59))]))
        w.instruments[0].zones = [
            W.Zone(generators: [Fixtures.gen(.keyRange, W.range(0, 40)), Fixtures.gen(.sampleID, 0)]),
            W.Zone(generators: [Fixtures.gen(.keyRange, W.range(60, 127)), Fixtures.gen(.sampleID, 0)]),
        ]
        let font = try Fixtures.load(w)
        let regions = font.regions(ofPreset: 0)
        #expect(regions.count == 1)
        #expect(regions.first?.instrumentZone == 0 && regions.first?.keyRange == 0...40)
    }

    @Test func defaultModulatorsAreFluidSynths() {
        let list = C.modulators(presetGlobal: Self.zone(), presetZone: Self.zone(), instrumentGlobal: Self.zone(), instrumentZone: Self.zone())
        #expect(C.defaultModulators.count == 10)
        // velocity → cutoff is inert in FluidSynth, so the voice's list has the other nine.
        #expect(list.count == 9)
        #expect(!list.contains { $0.destination == .initialFilterCutoff })
        let pan = list.first { $0.destination == .pan }
        #expect(pan?.amount == 500 && pan?.source.index == 10 && pan?.source.isBipolar == true)
        let bend = list.first { $0.destination == .fineTune }
        #expect(bend?.amount == 12_700 && bend?.amountSource.general == .pitchWheelSensitivity)
        #expect(list.filter { $0.destination == .initialAttenuation }.map(\.amount) == [960, 960, 960])
        #expect(list.first { $0.source.index == 91 }?.destination == .reverbEffectsSend)
    }

    @Test func instrumentModulatorsReplacePresetModulatorsAdd() {
        let cc7 = SoundFontModulatorSource(controller: 7, negative: true, curve: .concave)
        let cc1 = SoundFontModulatorSource(controller: 1)
        let cc74 = SoundFontModulatorSource(controller: 74)
        let instrumentGlobal = Self.zone([], [
            SoundFontModulator(source: cc7, destination: .initialAttenuation, amount: 600),
            SoundFontModulator(source: cc74, destination: .initialFilterCutoff, amount: 1_000),
        ])
        let instrumentLocal = Self.zone([], [
            SoundFontModulator(source: cc7, destination: .initialAttenuation, amount: 480),  // supersedes the global one
            SoundFontModulator(source: cc1, destination: .vibLFOToPitch, amount: 0),  // switches the default off
        ])
        let presetLocal = Self.zone([], [
            SoundFontModulator(source: cc7, destination: .initialAttenuation, amount: 100),  // added: 480 + 100
            SoundFontModulator(source: cc74, destination: .initialFilterCutoff, amount: 0),  // amount 0 at preset level: skipped
            SoundFontModulator(source: .init(controller: 2), destination: .modLFOToPitch, amount: 30),  // appended
        ])
        let list = C.modulators(presetGlobal: Self.zone(), presetZone: presetLocal, instrumentGlobal: instrumentGlobal, instrumentZone: instrumentLocal)
        #expect(list.first { $0.source == cc7 }?.amount == 580)
        #expect(!list.contains { $0.source == cc1 })
        #expect(list.first { $0.source == cc74 }?.amount == 1_000)
        #expect(list.first { $0.source.isController && $0.source.index == 2 }?.amount == 30)
        #expect(list.count == 9 - 1 + 2)  // nine live defaults, CC1 off, CC74 and CC2 appended
    }

    @Test func aFontsVelocityToCutoffModulatorActsNormally() {
        // The spec 2.01 form (amount source: negative switch) is not identical to FluidSynth's inert
        // default (positive switch), so it is a modulator of its own and stays.
        let spec201 = SoundFontModulator(
            source: .init(.noteOnVelocity, negative: true), destination: .initialFilterCutoff, amount: -2_400,
            amountSource: .init(.noteOnVelocity, negative: true, curve: .switch))
        let list = C.modulators(presetGlobal: Self.zone(), presetZone: Self.zone(), instrumentGlobal: Self.zone(), instrumentZone: Self.zone([], [spec201]))
        #expect(list.contains(spec201))
        // FluidSynth's own form, even restated with another amount, stays inert.
        var fs = C.velocityToFilterCutoff
        fs.amount = -1_200
        let restated = C.modulators(presetGlobal: Self.zone(), presetZone: Self.zone([], [fs]), instrumentGlobal: Self.zone(), instrumentZone: Self.zone())
        #expect(!restated.contains { $0.destination == .initialFilterCutoff })
    }

    @Test func identityIgnoresTheTransformAsFluidSynthDoes() {
        let a = SoundFontModulator(source: .init(controller: 1), destination: .pan, amount: 10, transform: 0)
        let b = SoundFontModulator(source: .init(controller: 1), destination: .pan, amount: 20, transform: 2)
        #expect(a.isIdentical(to: b))
        #expect(!a.isIdentical(to: SoundFontModulator(source: .init(controller: 1), destination: .pan, amount: 10, amountSource: .init(controller: 2))))
    }
}
