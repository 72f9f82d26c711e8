/// The generators one zone sets, by id, with the file's raw 16-bit amounts; a generator the zone
/// does not set reads as nil. Value type; any thread.
import MemberwiseInit

public struct SoundFontGenerators: Sendable, Equatable {
    private var amounts = [Int16](repeating: 0, count: SoundFontGenerator.idCount)
    private var setMask: UInt64 = 0

    public init() {}

    /// The raw amount (a range's is low byte | high byte << 8; an index's is its unsigned bit pattern).
    public subscript(_ generator: SoundFontGenerator) -> Int16? {
        get { setMask & (1 << UInt64(generator.rawValue)) != 0 ? amounts[generator.rawValue] : nil }
        set {
            if let newValue {
                amounts[generator.rawValue] = newValue
                setMask |= 1 << UInt64(generator.rawValue)
            } else {
                setMask &= ~(1 << UInt64(generator.rawValue))
            }
        }
    }

    /// The generators set, in id order, with their amounts.
    public var all: [(SoundFontGenerator, Int16)] {
        SoundFontGenerator.allCases.compactMap { g in self[g].map { (g, $0) } }
    }

    public var count: Int { setMask.nonzeroBitCount }
    public var isEmpty: Bool { setMask == 0 }
}

/// One zone of a preset or instrument: the generators it sets and its modulators. The first zone
/// of a preset or instrument may be its global zone (no `instrument` / `sampleID` generator), whose
/// generators and modulators every other zone of it inherits unless it sets its own.
@PublicInit
public struct SoundFontZone: Sendable, Equatable {
    public var generators: SoundFontGenerators = SoundFontGenerators()
    public var modulators: [SoundFontModulator] = []

    /// The index into `SoundFontFile.instruments` of a preset zone (nil for a global zone).
    public var instrumentIndex: Int? { generators[.instrument].map { Int(UInt16(bitPattern: $0)) } }
    /// The index into `SoundFontFile.samples` of an instrument zone (nil for a global zone).
    public var sampleIndex: Int? { generators[.sampleID].map { Int(UInt16(bitPattern: $0)) } }
    public var isEmpty: Bool { generators.isEmpty && modulators.isEmpty }
}

/// A preset: what a bank and program number select. Its zones each name an instrument.
public struct SoundFontPreset: Sendable, Equatable {
    public var name: String
    /// 0…127 melodic, 128 percussion (spec §7.2); other values are kept but no MIDI bank select reaches them.
    public var bank: Int
    /// The MIDI program, 0…127 (other values kept, unreachable).
    public var program: Int
    /// The global zone (empty when the preset has none).
    public var global: SoundFontZone
    /// The preset's zones, in file order, each with an `instrumentIndex`.
    public var zones: [SoundFontZone]
}

/// An instrument: zones that each play a sample over a key and velocity range.
public struct SoundFontInstrument: Sendable, Equatable {
    public var name: String
    /// The global zone (empty when the instrument has none).
    public var global: SoundFontZone
    /// The instrument's zones, in file order, each with a `sampleIndex`.
    public var zones: [SoundFontZone]
}
