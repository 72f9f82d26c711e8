/// The SoundFont 2.04 generators the synthesis model reads (S§8.1.2), by their enumerator.
/// Values are in the file's units (timecents, absolute cents, centibels, 0.1 %, …); the voice
/// converts them the way FluidSynth 2.3 does (see `SF2Units`).
public enum SF2Generator {
    public static let startAddressOffset = 0
    public static let endAddressOffset = 1
    public static let startLoopAddressOffset = 2
    public static let endLoopAddressOffset = 3
    public static let startAddressCoarseOffset = 4
    public static let modLFOToPitch = 5
    public static let vibLFOToPitch = 6
    public static let modEnvToPitch = 7
    public static let initialFilterCutoff = 8
    public static let initialFilterQ = 9
    public static let modLFOToFilterCutoff = 10
    public static let modEnvToFilterCutoff = 11
    public static let endAddressCoarseOffset = 12
    public static let modLFOToVolume = 13
    public static let chorusSend = 15
    public static let reverbSend = 16
    public static let pan = 17
    public static let modLFODelay = 21
    public static let modLFOFrequency = 22
    public static let vibLFODelay = 23
    public static let vibLFOFrequency = 24
    public static let modEnvDelay = 25
    public static let modEnvAttack = 26
    public static let modEnvHold = 27
    public static let modEnvDecay = 28
    public static let modEnvSustain = 29
    public static let modEnvRelease = 30
    public static let keyToModEnvHold = 31
    public static let keyToModEnvDecay = 32
    public static let volEnvDelay = 33
    public static let volEnvAttack = 34
    public static let volEnvHold = 35
    public static let volEnvDecay = 36
    public static let volEnvSustain = 37
    public static let volEnvRelease = 38
    public static let keyToVolEnvHold = 39
    public static let keyToVolEnvDecay = 40
    public static let instrument = 41
    public static let keyRange = 43
    public static let velocityRange = 44
    public static let startLoopAddressCoarseOffset = 45
    public static let keyNumber = 46
    public static let velocity = 47
    public static let initialAttenuation = 48
    public static let endLoopAddressCoarseOffset = 50
    public static let coarseTune = 51
    public static let fineTune = 52
    public static let sampleID = 53
    public static let sampleModes = 54
    public static let scaleTuning = 56
    public static let exclusiveClass = 57
    public static let overridingRootKey = 58

    /// Enumerators 0…60 (60 = endOper); a modulator aimed beyond is dropped at load.
    public static let count = 61

    /// The spec's default value of generator `index` (S§8.1.3): what a zone that does not set it
    /// plays with. Everything not listed is 0.
    public static func defaultValue(_ index: Int) -> Double {
        switch index {
        case initialFilterCutoff: 13_500
        case modLFODelay, vibLFODelay, modEnvDelay, modEnvAttack, modEnvHold, modEnvDecay, modEnvRelease,
            volEnvDelay, volEnvAttack, volEnvHold, volEnvDecay, volEnvRelease:
            -12_000
        case keyNumber, velocity, overridingRootKey: -1
        case scaleTuning: 100
        default: 0
        }
    }
}

/// The value of every generator for one (preset zone, instrument zone) pair: instrument values,
/// preset offsets added (S§9.4), before any modulator. The SoundFont loader fills it (with
/// FluidSynth's ×0.4 already applied to `initialAttenuation`); absent generators keep their
/// defaults. Control thread; the program copies it into raw memory for the render thread.
public struct SF2Generators: Sendable, Hashable {
    public private(set) var values: [Double]

    public init() {
        values = (0..<SF2Generator.count).map(SF2Generator.defaultValue)
    }

    public subscript(_ index: Int) -> Double {
        get { values.indices.contains(index) ? values[index] : 0 }
        set { if values.indices.contains(index) { values[index] = newValue.isFinite ? newValue : SF2Generator.defaultValue(index) } }
    }
}
