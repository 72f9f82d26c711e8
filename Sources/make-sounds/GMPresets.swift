import AudioFiles

/// The bundled `.aupreset` files over the generated samples. Layer gains set each melodic preset's
/// held note at velocity 100 within 2 dB RMS of Keys' (measured by `Tests/SamplerTests/BundledGMPresetTests`).
enum GMPresets {
    typealias Zone = SamplerPresetSpec.ZoneSpec

    /// Three zones split halfway between their roots, the lowest and highest open to the keyboard's ends.
    static func splitZones(_ samples: [GMInstruments.Sample], loop: Bool) -> [Zone] {
        samples.enumerated().map { index, sample in
            let low = index == 0 ? 0 : (samples[index - 1].rootKey + sample.rootKey) / 2 + 1
            let high = index == samples.count - 1 ? 127 : (sample.rootKey + samples[index + 1].rootKey) / 2
            return Zone(sample: sample.file, rootKey: sample.rootKey, keys: low...high, loop: loop)
        }
    }

    /// `Keys.aupreset` (written by hand first): roots 48/60/72 × soft/hard, the soft zones 5 dB up.
    static var keys: SamplerPresetSpec {
        var zones: [Zone] = []
        for (root, keys) in [(48, 0...53), (60, 54...65), (72, 66...127)] {
            for (name, velocities) in [("soft", 0...89), ("hard", 90...127)] {
                // The soft layer is darker and its samples 7 dB quieter; +5 dB leaves the step from the
                // velocity curve (as FluidR3_GM's electric pianos, which have no extra drop).
                zones.append(
                    Zone(
                        sample: "Keys/keys-\(root)-\(name).wav", rootKey: root, keys: keys, velocities: velocities, loop: true,
                        gainDecibels: name == "soft" ? 5 : 0))
            }
        }
        return SamplerPresetSpec(name: "Keys", envelope: .init(release: 0.4), zones: zones)
    }

    static func bass(_ samples: [GMInstruments.Sample]) -> SamplerPresetSpec {
        SamplerPresetSpec(
            name: "Bass", envelope: .init(attack: 0.002, decay: 2.0, sustain: 0.6, release: 0.08),
            zones: splitZones(samples, loop: true), gainDecibels: 2.5)
    }

    static func guitar(_ samples: [GMInstruments.Sample]) -> SamplerPresetSpec {
        SamplerPresetSpec(
            name: "Guitar", envelope: .init(attack: 0.001, release: 0.25), zones: splitZones(samples, loop: false), gainDecibels: 0.5)
    }

    static func strings(_ samples: [GMInstruments.Sample]) -> SamplerPresetSpec {
        SamplerPresetSpec(
            name: "Strings", envelope: .init(attack: 0.25, release: 0.6), zones: splitZones(samples, loop: true), gainDecibels: 1)
    }

    static func organ(_ samples: [GMInstruments.Sample]) -> SamplerPresetSpec {
        SamplerPresetSpec(
            name: "Organ", envelope: .init(attack: 0.005, release: 0.06), zones: splitZones(samples, loop: true))
    }

    /// A kit: one one-shot zone per percussion key; the kit sits 4 dB up so short hits hold their
    /// own against sustained parts in a song.
    static func drums(_ kit: DrumKit.Kit) -> SamplerPresetSpec {
        let zones = kit.keys.map { key in
            Zone(sample: "Drums/\(key.file).wav", rootKey: key.rootKey, keys: key.key...key.key, gainDecibels: key.gainDecibels)
        }
        return SamplerPresetSpec(name: kit.name, envelope: .init(release: 0.2), zones: zones, gainDecibels: 4, oneShot: true)
    }

    /// A looped tone family (`ToneFamilies`): zones split between its roots. Its envelope is the
    /// family's plainest; programs shape it further in the instrument file.
    static func family(_ name: String, _ samples: [GMInstruments.Sample], attack: Double = 0.002, release: Double = 0.2) -> SamplerPresetSpec {
        SamplerPresetSpec(name: name, envelope: .init(attack: attack, release: release), zones: splitZones(samples, loop: true))
    }
}
