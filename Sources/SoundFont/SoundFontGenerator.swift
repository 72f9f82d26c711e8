/// The SoundFont 2.04 generators (spec §8.1.2), by their file id. Units are the file's: cents,
/// timecents (2^(tc/1200) s), centibels, 0.1 %, sample points; see Sources/SoundFont/README.md.
/// Ids the spec leaves unused (14, 18–20, 42, 49, 55, 59 and up) have no case: the loader drops
/// them, as FluidSynth does.
public enum SoundFontGenerator: Int, CaseIterable, Sendable {
    case startAddressOffset = 0, endAddressOffset, startLoopAddressOffset, endLoopAddressOffset, startAddressCoarseOffset
    case modLFOToPitch, vibLFOToPitch, modEnvToPitch, initialFilterCutoff, initialFilterQ, modLFOToFilterCutoff, modEnvToFilterCutoff
    case endAddressCoarseOffset
    case modLFOToVolume = 13
    case chorusEffectsSend = 15, reverbEffectsSend, pan
    case delayModLFO = 21, freqModLFO, delayVibLFO, freqVibLFO
    case delayModEnv, attackModEnv, holdModEnv, decayModEnv, sustainModEnv, releaseModEnv, keyToModEnvHold, keyToModEnvDecay
    case delayVolEnv, attackVolEnv, holdVolEnv, decayVolEnv, sustainVolEnv, releaseVolEnv, keyToVolEnvHold, keyToVolEnvDecay
    case instrument, keyRange = 43, velocityRange, startLoopAddressCoarseOffset, keyNumber, velocity, initialAttenuation
    case endLoopAddressCoarseOffset = 50, coarseTune, fineTune, sampleID, sampleModes
    case scaleTuning = 56, exclusiveClass, overridingRootKey

    /// Generator ids run 0…58; arrays indexed by id have this many entries.
    public static let idCount = 59

    /// The value a voice starts from when no zone sets the generator (spec §8.1.2).
    public var defaultValue: Int {
        switch self {
        case .initialFilterCutoff: 13_500
        case .delayModLFO, .delayVibLFO, .delayModEnv, .attackModEnv, .holdModEnv, .decayModEnv, .releaseModEnv, .delayVolEnv,
            .attackVolEnv, .holdVolEnv, .decayVolEnv, .releaseVolEnv:
            -12_000
        case .keyNumber, .velocity, .overridingRootKey: -1
        case .scaleTuning: 100
        case .keyRange, .velocityRange: 127 << 8  // low 0, high 127
        default: 0
        }
    }

    /// Generators that only mean something in an instrument zone: sample addresses, key/velocity
    /// overrides, sample modes, exclusive class, root key (spec §8.1.3; FluidSynth drops them from
    /// preset zones at load, and so do we). `sampleID` ends an instrument zone.
    public var isInstrumentOnly: Bool {
        switch self {
        case .startAddressOffset, .endAddressOffset, .startLoopAddressOffset, .endLoopAddressOffset, .startAddressCoarseOffset,
            .endAddressCoarseOffset, .startLoopAddressCoarseOffset, .endLoopAddressCoarseOffset, .keyNumber, .velocity,
            .sampleModes, .exclusiveClass, .overridingRootKey, .sampleID:
            true
        default: false
        }
    }

    /// The amount is two bytes, low and high (keyRange, velocityRange), not a number.
    public var isRange: Bool { self == .keyRange || self == .velocityRange }

    /// The amount is an unsigned index (instrument, sampleID).
    public var isIndex: Bool { self == .instrument || self == .sampleID }

    /// The spec's name, for messages ("initialFilterFc" is given as the spec spells it).
    public var specName: String {
        switch self {
        case .startAddressOffset: "startAddrsOffset"
        case .endAddressOffset: "endAddrsOffset"
        case .startLoopAddressOffset: "startloopAddrsOffset"
        case .endLoopAddressOffset: "endloopAddrsOffset"
        case .startAddressCoarseOffset: "startAddrsCoarseOffset"
        case .modLFOToPitch: "modLfoToPitch"
        case .vibLFOToPitch: "vibLfoToPitch"
        case .modEnvToPitch: "modEnvToPitch"
        case .initialFilterCutoff: "initialFilterFc"
        case .initialFilterQ: "initialFilterQ"
        case .modLFOToFilterCutoff: "modLfoToFilterFc"
        case .modEnvToFilterCutoff: "modEnvToFilterFc"
        case .endAddressCoarseOffset: "endAddrsCoarseOffset"
        case .modLFOToVolume: "modLfoToVolume"
        case .chorusEffectsSend: "chorusEffectsSend"
        case .reverbEffectsSend: "reverbEffectsSend"
        case .pan: "pan"
        case .delayModLFO: "delayModLFO"
        case .freqModLFO: "freqModLFO"
        case .delayVibLFO: "delayVibLFO"
        case .freqVibLFO: "freqVibLFO"
        case .delayModEnv: "delayModEnv"
        case .attackModEnv: "attackModEnv"
        case .holdModEnv: "holdModEnv"
        case .decayModEnv: "decayModEnv"
        case .sustainModEnv: "sustainModEnv"
        case .releaseModEnv: "releaseModEnv"
        case .keyToModEnvHold: "keynumToModEnvHold"
        case .keyToModEnvDecay: "keynumToModEnvDecay"
        case .delayVolEnv: "delayVolEnv"
        case .attackVolEnv: "attackVolEnv"
        case .holdVolEnv: "holdVolEnv"
        case .decayVolEnv: "decayVolEnv"
        case .sustainVolEnv: "sustainVolEnv"
        case .releaseVolEnv: "releaseVolEnv"
        case .keyToVolEnvHold: "keynumToVolEnvHold"
        case .keyToVolEnvDecay: "keynumToVolEnvDecay"
        case .instrument: "instrument"
        case .keyRange: "keyRange"
        case .velocityRange: "velRange"
        case .startLoopAddressCoarseOffset: "startloopAddrsCoarseOffset"
        case .keyNumber: "keynum"
        case .velocity: "velocity"
        case .initialAttenuation: "initialAttenuation"
        case .endLoopAddressCoarseOffset: "endloopAddrsCoarseOffset"
        case .coarseTune: "coarseTune"
        case .fineTune: "fineTune"
        case .sampleID: "sampleID"
        case .sampleModes: "sampleModes"
        case .scaleTuning: "scaleTuning"
        case .exclusiveClass: "exclusiveClass"
        case .overridingRootKey: "overridingRootKey"
        }
    }
}
