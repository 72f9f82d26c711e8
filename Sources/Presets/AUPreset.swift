/// A decoded AUSampler preset (`.aupreset`): global parameters, layers with their zones and
/// articulation, and the sample file references the zones point to.
///
/// Built on the control thread by `AUPreset.load(path:)`/`parse(data:path:)`; pure data after
/// that, so the sampler may read it from any thread.
import MemberwiseInit

@PublicInit
public struct AUPreset: Sendable, Equatable {
    /// The file it came from (used to resolve relative sample paths and in messages).
    public var path: String
    /// Top-level `name` (falls back to `Instrument.name`, then the file name).
    public var name: String
    /// `Instrument.name`, if present (may differ from `name`).
    public var instrumentName: String? = nil
    public var globals: GlobalParameters = GlobalParameters()
    /// `voice count`: polyphony (default 64).
    public var voiceCount: Int = 64
    /// `Instrument.Layers`, in file order.
    public var layers: [Layer] = []
    /// `file-references` entries "Sample:<n>" → stored path or URL, keyed by n (= `Zone.waveform`).
    public var fileReferences: [Int: String] = [:]
    /// Everything the loader tolerated but the sampler may not honour, one line each.
    public var warnings: [String] = []

    /// The stored reference of a zone's sample, or `nil` for the built-in sine or a missing key.
    public func fileReference(for zone: Zone) -> String? {
        zone.usesBuiltInSine ? nil : fileReferences[zone.waveform]
    }

    /// The waveform IDs that enabled zones actually use (sorted; excludes the built-in sine).
    /// Unused references are not loaded, so a missing unused file is harmless.
    public var usedWaveforms: [Int] {
        let ids = layers.flatMap { $0.zones.filter { $0.enabled && !$0.usesBuiltInSine }.map(\.waveform) }
        return Array(Set(ids)).sorted()
    }
}

/// The sampler's global parameters 900–903. Top-level keys win; the 44-byte `data` blob fills in
/// any that are absent.
@PublicInit
public struct GlobalParameters: Sendable, Equatable {
    /// `gain` (param 900), dB, −90…12.
    public var gainDecibels: Double = 0
    /// `pan` (param 903), −1…1.
    public var pan: Double = 0
    /// `coarse tune` (param 901), semitones, −24…24.
    public var coarseTuneSemitones: Double = 0
    /// `fine tune` (param 902), cents, −99…99.
    public var fineTuneCents: Double = 0
}
