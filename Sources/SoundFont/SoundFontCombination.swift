/// The generator values of a voice: one per generator id, in the file's units, after combining
/// defaults, instrument and preset zones. Not clamped: the synthesis side clamps each value at use
/// where FluidSynth does (Sources/SoundFont/README.md lists where). Value type; any thread.
public struct SoundFontEffectiveGenerators: Sendable, Equatable {
    /// 32 bits hold any sum of two 16-bit amounts, at half the memory of Int (FluidR3_GM has 16,912 regions).
    private var values: [Int32]

    /// Every generator at its default (`SoundFontGenerator.defaultValue`).
    public init() { values = Self.defaults }

    private static let defaults = (0..<SoundFontGenerator.idCount).map { Int32(SoundFontGenerator(rawValue: $0)?.defaultValue ?? 0) }

    public subscript(_ generator: SoundFontGenerator) -> Int {
        get { Int(values[generator.rawValue]) }
        set { values[generator.rawValue] = Int32(clamping: newValue) }
    }
}

/// One (preset zone, instrument zone) pair a note can start: the sample, the key and velocity
/// ranges where both zones meet, and the voice's generators and modulators. What an SF2 zone
/// becomes for the sampler. Value type; any thread.
public struct SoundFontRegion: Sendable, Equatable {
    /// Index into the preset's `zones`.
    public var presetZone: Int
    /// Index into `SoundFontFile.instruments`, and into that instrument's `zones`.
    public var instrument: Int
    public var instrumentZone: Int
    /// Index into `SoundFontFile.samples`.
    public var sample: Int
    /// Keys and velocities in both zones' ranges.
    public var keyRange: ClosedRange<Int>
    public var velocityRange: ClosedRange<Int>
    public var generators: SoundFontEffectiveGenerators
    /// The voice's modulators: FluidSynth's defaults, then the instrument's and the preset's (see
    /// `SoundFontCombination.modulators`). Only those that can change a value are listed.
    public var modulators: [SoundFontModulator]
}

/// The SoundFont combination rules (spec §8.5, §9.4, §9.5.1) as FluidSynth 2.3 applies them at
/// note-on (defsfont `fluid_defpreset_noteon`). Pure functions; any thread.
public enum SoundFontCombination {
    /// The default modulators every voice starts with, as FluidSynth 2.3 has them (synth
    /// `fluid_synth_init`), which differ from spec §8.4 in three ways:
    /// - velocity → filter cutoff has a positive switch as amount source, and FluidSynth computes 0
    ///   for any modulator identical to it, so it is inert (it is left out of `modulators`' result);
    /// - CC10 → pan has amount 500, not 1000 (CC 0 = hard left, 127 = +49.2 %);
    /// - the pitch wheel × its sensitivity goes to fineTune (the spec's "initial pitch" is not a generator).
    /// FluidSynth's eleventh, CC8 → stereo balance, has no SF2 destination and is not listed.
    public static let defaultModulators: [SoundFontModulator] = [
        SoundFontModulator(source: .init(.noteOnVelocity, negative: true, curve: .concave), destination: .initialAttenuation, amount: 960),
        velocityToFilterCutoff,
        SoundFontModulator(source: .init(.channelPressure), destination: .vibLFOToPitch, amount: 50),
        SoundFontModulator(source: .init(controller: 1), destination: .vibLFOToPitch, amount: 50),
        SoundFontModulator(source: .init(controller: 7, negative: true, curve: .concave), destination: .initialAttenuation, amount: 960),
        SoundFontModulator(source: .init(controller: 10, bipolar: true), destination: .pan, amount: 500),
        SoundFontModulator(source: .init(controller: 11, negative: true, curve: .concave), destination: .initialAttenuation, amount: 960),
        SoundFontModulator(source: .init(controller: 91), destination: .reverbEffectsSend, amount: 200),
        SoundFontModulator(source: .init(controller: 93), destination: .chorusEffectsSend, amount: 200),
        SoundFontModulator(
            source: .init(.pitchWheel, bipolar: true), destination: .fineTune, amount: 12_700, amountSource: .init(.pitchWheelSensitivity)),
    ]

    /// The defaults that act: the voice's list when no zone has modulators.
    static let liveDefaults = defaultModulators.filter { !$0.isIdentical(to: velocityToFilterCutoff) }

    /// FluidSynth's form of the default velocity → cutoff modulator (inert, see `defaultModulators`).
    public static let velocityToFilterCutoff = SoundFontModulator(
        source: .init(.noteOnVelocity, negative: true), destination: .initialFilterCutoff, amount: -2400,
        amountSource: .init(.noteOnVelocity, curve: .switch))

    /// The voice's generator values: the instrument's local zone replaces its global zone, which
    /// replaces the default; then the preset's local zone (else its global zone) is added. Ranges
    /// and the instrument/sampleID indices are not values and are left at their defaults; preset
    /// zones hold no instrument-only generators (the loader drops them, as FluidSynth does).
    public static func generators(
        presetGlobal: SoundFontZone, presetZone: SoundFontZone, instrumentGlobal: SoundFontZone, instrumentZone: SoundFontZone
    ) -> SoundFontEffectiveGenerators {
        var values = SoundFontEffectiveGenerators()
        for generator in valueGenerators {
            if let amount = instrumentZone.generators[generator] ?? instrumentGlobal.generators[generator] {
                values[generator] = Int(amount)
            }
            if let amount = presetZone.generators[generator] ?? presetGlobal.generators[generator] {
                values[generator] += Int(amount)
            }
        }
        return values
    }

    /// The generators that are values (not ranges or indices): those combined.
    static let valueGenerators = SoundFontGenerator.allCases.filter { !$0.isRange && !$0.isIndex }

    /// The key and velocity ranges a note must lie in, nil where none: a zone without its own range
    /// takes its global zone's (spec §9.4; FluidSynth ≥ 2.3.3, where 2.3.1/2.3.2 used 0–127), and the
    /// preset's and instrument's ranges intersect (spec §9.4). A range's amount is its low byte, then
    /// its high byte; a font may hold low > high, which matches nothing.
    public static func ranges(
        presetGlobal: SoundFontZone, presetZone: SoundFontZone, instrumentGlobal: SoundFontZone, instrumentZone: SoundFontZone
    ) -> (key: ClosedRange<Int>?, velocity: ClosedRange<Int>?) {
        func bounds(_ zone: SoundFontZone, _ global: SoundFontZone, _ generator: SoundFontGenerator) -> (low: Int, high: Int) {
            guard let amount = zone.generators[generator] ?? global.generators[generator] else { return (0, 127) }
            let bits = UInt16(bitPattern: amount)
            return (Int(bits & 0xFF), Int(bits >> 8))
        }
        func range(_ generator: SoundFontGenerator) -> ClosedRange<Int>? {
            let p = bounds(presetZone, presetGlobal, generator), i = bounds(instrumentZone, instrumentGlobal, generator)
            let low = max(p.low, i.low), high = min(p.high, i.high)
            return low <= high ? low...high : nil
        }
        return (range(.keyRange), range(.velocityRange))
    }

    /// The voice's modulators, as FluidSynth 2.3 builds them (defsfont
    /// `fluid_defpreset_noteon_add_mod_to_voice`, voice `fluid_voice_add_mod_local`):
    /// 1. the defaults;
    /// 2. the instrument's local modulators, then its global ones that no local one is identical
    ///    to; each *replaces* the amount of an identical modulator already there (amount 0 included:
    ///    that is how a font switches a default off), or is appended;
    /// 3. the preset's, merged the same way; each with a non-zero amount is *added* to an identical
    ///    modulator's amount, or appended;
    /// at most 64 in all. Identity is FluidSynth's (sources and destination, not the transform).
    /// Modulators left with amount 0, and the inert velocity → cutoff default, are removed from the
    /// result: they change nothing.
    public static func modulators(
        presetGlobal: SoundFontZone, presetZone: SoundFontZone, instrumentGlobal: SoundFontZone, instrumentZone: SoundFontZone
    ) -> [SoundFontModulator] {
        if instrumentZone.modulators.isEmpty && instrumentGlobal.modulators.isEmpty && presetZone.modulators.isEmpty
            && presetGlobal.modulators.isEmpty
        {
            return liveDefaults  // shared, not copied: most zones of real fonts have no modulators
        }
        var voice: [SoundFontModulator] = []
        voice.reserveCapacity(
            defaultModulators.count + instrumentZone.modulators.count + instrumentGlobal.modulators.count + presetZone.modulators.count
                + presetGlobal.modulators.count)
        voice += defaultModulators
        for modulator in merged(local: instrumentZone.modulators, global: instrumentGlobal.modulators) {
            if let i = voice.firstIndex(where: { $0.isIdentical(to: modulator) }) {
                voice[i].amount = modulator.amount
            } else if voice.count < ZoneReader.maxModulatorsPerZone {
                voice.append(modulator)
            }
        }
        for modulator in merged(local: presetZone.modulators, global: presetGlobal.modulators) where modulator.amount != 0 {
            if let i = voice.firstIndex(where: { $0.isIdentical(to: modulator) }) {
                voice[i].amount += modulator.amount
            } else if voice.count < ZoneReader.maxModulatorsPerZone {
                voice.append(modulator)
            }
        }
        return voice.filter { $0.amount != 0 && !$0.isIdentical(to: velocityToFilterCutoff) }
    }

    /// A zone's local modulators, then the global ones no local modulator is identical to (spec
    /// §9.5.1: a local modulator supersedes an identical global one), at most 64.
    static func merged(local: [SoundFontModulator], global: [SoundFontModulator]) -> [SoundFontModulator] {
        var list = local
        list.reserveCapacity(local.count + global.count)
        for modulator in global where !local.contains(where: { $0.isIdentical(to: modulator) }) {
            guard list.count < ZoneReader.maxModulatorsPerZone else { break }
            list.append(modulator)
        }
        return list
    }

    /// The region for one (preset zone, instrument zone) pair, or nil when their ranges do not meet.
    public static func region(
        preset: SoundFontPreset, presetZone: Int, instrument: SoundFontInstrument, instrumentIndex: Int, instrumentZone: Int, sample: Int
    ) -> SoundFontRegion? {
        let p = preset.zones[presetZone], i = instrument.zones[instrumentZone]
        let (key, velocity) = ranges(presetGlobal: preset.global, presetZone: p, instrumentGlobal: instrument.global, instrumentZone: i)
        guard let key, let velocity else { return nil }
        return SoundFontRegion(
            presetZone: presetZone, instrument: instrumentIndex, instrumentZone: instrumentZone, sample: sample, keyRange: key,
            velocityRange: velocity,
            generators: generators(presetGlobal: preset.global, presetZone: p, instrumentGlobal: instrument.global, instrumentZone: i),
            modulators: modulators(presetGlobal: preset.global, presetZone: p, instrumentGlobal: instrument.global, instrumentZone: i))
    }
}

extension SoundFontFile {
    /// Every region of `presets[index]` that can sound: pairs of its zones and their instrument's
    /// zones whose ranges meet and whose sample plays, in file order. Control thread (allocates).
    public func regions(ofPreset index: Int) -> [SoundFontRegion] {
        let preset = presets[index]
        var regions: [SoundFontRegion] = []
        for (p, zone) in preset.zones.enumerated() {
            guard let instrumentIndex = zone.instrumentIndex, instruments.indices.contains(instrumentIndex) else { continue }
            let instrument = instruments[instrumentIndex]
            for (i, instrumentZone) in instrument.zones.enumerated() {
                guard let sample = instrumentZone.sampleIndex, samples.indices.contains(sample), samples[sample].isPlayable else { continue }
                if let region = SoundFontCombination.region(
                    preset: preset, presetZone: p, instrument: instrument, instrumentIndex: instrumentIndex, instrumentZone: i, sample: sample)
                {
                    regions.append(region)
                }
            }
        }
        return regions
    }
}
