/// One SoundFont modulator (S§8.2–8.3): `amount` × map(`source`) × map(`amountSource`), added to
/// generator `destination`. Sources are the file's 16-bit enumerators: bits 0–6 the index, bit 7
/// the CC flag, bit 8 direction (max → min), bit 9 polarity (bipolar), bits 10–15 the curve
/// (0 linear, 1 concave, 2 convex, 3 switch). `transform` 2 takes the absolute value.
import MemberwiseInit

@PublicInit
public struct SF2Modulator: Sendable, Equatable, Hashable {
    public var source: UInt16
    public var destination: UInt16
    public var amount: Double
    public var amountSource: UInt16 = 0
    public var transform: UInt16 = 0

    /// The ten default modulators as FluidSynth 2.3 adds them to every voice (S§8.4, with FS's
    /// amounts: pan 500, not 1000; velocity → cutoff in FS's inert form, kept so that a font's
    /// restatement of it replaces it as FS's does).
    public static let fluidSynthDefaults: [SF2Modulator] = [
        SF2Modulator(source: 0x0502, destination: UInt16(SF2Generator.initialAttenuation), amount: 960),
        SF2Modulator(source: 0x0102, destination: UInt16(SF2Generator.initialFilterCutoff), amount: -2400, amountSource: 0x0C02),
        SF2Modulator(source: 0x000D, destination: UInt16(SF2Generator.vibLFOToPitch), amount: 50),
        SF2Modulator(source: 0x0081, destination: UInt16(SF2Generator.vibLFOToPitch), amount: 50),
        SF2Modulator(source: 0x0587, destination: UInt16(SF2Generator.initialAttenuation), amount: 960),
        SF2Modulator(source: 0x028A, destination: UInt16(SF2Generator.pan), amount: 500),
        SF2Modulator(source: 0x058B, destination: UInt16(SF2Generator.initialAttenuation), amount: 960),
        SF2Modulator(source: 0x00DB, destination: UInt16(SF2Generator.reverbSend), amount: 200),
        SF2Modulator(source: 0x00DD, destination: UInt16(SF2Generator.chorusSend), amount: 200),
        SF2Modulator(source: 0x020E, destination: UInt16(SF2Generator.fineTune), amount: 12_700, amountSource: 0x0010),
    ]

    /// FluidSynth's velocity → cutoff default, which it evaluates to 0 whatever the velocity (a
    /// font modulator identical to it, in sources and destination, is silenced the same way).
    static let inertVelocityToCutoff = (source: UInt16(0x0102), amountSource: UInt16(0x0C02), destination: UInt16(SF2Generator.initialFilterCutoff))

    /// Same sources and destination (FluidSynth's identity test; the amount and transform may differ).
    public func isIdentical(to other: SF2Modulator) -> Bool {
        source == other.source && amountSource == other.amountSource && destination == other.destination
    }

    /// The index of the general controller or CC a source enumerator names, and whether it is a CC.
    public static func controller(of source: UInt16) -> (index: Int, isCC: Bool) {
        (Int(source & 0x7F), source & 0x80 != 0)
    }
}

/// What a modulator's sources read, for one voice: its note and the channel's controllers.
/// Plain values and a pointer to the part's 128 controller values; render-thread safe.
struct SF2ModulationSources {
    /// The key and velocity modulators see (after the zone's keynum/velocity overrides).
    var key: Int
    var velocity: Int
    var controllers: UnsafePointer<UInt8>
    var channelPressure: Int
    var polyPressure: Int
    /// Pitch wheel 0…16383 (8192 centred).
    var pitchWheel: Int
    /// RPN 0, semitones.
    var bendSensitivity: Double

    /// FluidSynth 2.3's output of `modulator`: amount × map(source) × map(amount source); a
    /// source of "no controller" makes it 0 (primary) or 1 (secondary).
    @_noAllocation
    func value(of modulator: SF2Modulator) -> Double {
        let inert = SF2Modulator.inertVelocityToCutoff
        if modulator.source == inert.source && modulator.amountSource == inert.amountSource && modulator.destination == inert.destination {
            return 0
        }
        if modulator.source & 0x7F == 0 { return 0 }
        let primary = mapped(modulator.source)
        if primary == 0 { return 0 }
        let secondary = modulator.amountSource & 0x7F == 0 ? 1 : mapped(modulator.amountSource)
        let value = modulator.amount * primary * secondary
        return modulator.transform == 2 ? abs(value) : value
    }

    /// A source's raw value mapped through its direction, polarity and curve (`fluid_mod.c`, 2.3).
    @_noAllocation
    private func mapped(_ source: UInt16) -> Double {
        var range = 128.0
        let raw: Double
        let index = Int(source & 0x7F)
        if source & 0x80 != 0 {
            raw = Double(controllers[index])
        } else {
            switch index {
            case 0: raw = range
            case 2: raw = Double(velocity)
            case 3: raw = Double(key)
            case 10: raw = Double(polyPressure)
            case 13: raw = Double(channelPressure)
            case 14:
                raw = Double(pitchWheel)
                range = 16_384
            case 16: raw = bendSensitivity
            default: return 0  // unknown general controller: FS disables the modulator
            }
        }
        let x = raw / range
        let negative = source & 0x100 != 0, bipolar = source & 0x200 != 0
        switch source >> 10 {
        case 0:
            if bipolar { return negative ? 1 - 2 * x : -1 + 2 * x }
            return negative ? 1 - x : x
        case 1, 2:
            let concave = source >> 10 == 1
            if !bipolar { return Self.curve(concave, 127 * (negative ? 1 - x : x)) }
            let magnitude = Self.curve(concave, x > 0.5 ? 127 * 2 * (x - 0.5) : 127 * 2 * (0.5 - x))
            return (x > 0.5) != negative ? magnitude : -magnitude
        case 3:
            let high = x >= 0.5
            if bipolar { return high != negative ? 1 : -1 }
            return high != negative ? 1 : 0
        default:
            return 0  // unknown curve: FS disables the modulator
        }
    }

    @_noAllocation
    private static func curve(_ concave: Bool, _ v: Double) -> Double {
        concave ? SF2Units.concave(v) : SF2Units.convex(v)
    }
}
