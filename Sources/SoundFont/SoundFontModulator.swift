/// A modulator's source (spec §8.2): a MIDI controller or note property, with its direction,
/// polarity and curve, as the 16-bit enumerator the file stores.
import MemberwiseInit

public struct SoundFontModulatorSource: Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The curve mapping the controller's 0…1 onto the source value (spec §8.2.4).
    public enum Curve: Int, Sendable {
        case linear = 0, concave, convex, `switch`
    }

    /// The non-controller sources (`isController == false`), by index.
    public enum General: Int, Sendable {
        case none = 0, noteOnVelocity = 2, noteOnKey = 3, polyPressure = 10, channelPressure = 13, pitchWheel = 14
        case pitchWheelSensitivity = 16, link = 127
    }

    /// Bits 0–6: the controller number (`isController`) or a `General` index.
    public var index: Int { Int(rawValue & 0x7F) }
    /// Bit 7: a MIDI continuous controller (CC `index`) rather than a general source.
    public var isController: Bool { rawValue & 0x80 != 0 }
    /// Bit 8: maps maximum to minimum (1 − x).
    public var isNegative: Bool { rawValue & 0x100 != 0 }
    /// Bit 9: −1…1 rather than 0…1.
    public var isBipolar: Bool { rawValue & 0x200 != 0 }
    /// Bits 10–15; nil for the types the spec does not define (FluidSynth turns such a modulator off).
    public var curve: Curve? { Curve(rawValue: Int(rawValue >> 10)) }
    /// The general source, when `isController` is false and the index is one the spec defines.
    public var general: General? { isController ? nil : General(rawValue: index) }

    /// "No controller": as primary source FluidSynth drops the modulator; as amount source it is 1.
    public var isNone: Bool { !isController && index == 0 }

    public init(controller: Int, negative: Bool = false, bipolar: Bool = false, curve: Curve = .linear) {
        self.init(raw: UInt16(controller & 0x7F) | 0x80, negative: negative, bipolar: bipolar, curve: curve)
    }

    public init(_ general: General, negative: Bool = false, bipolar: Bool = false, curve: Curve = .linear) {
        self.init(raw: UInt16(general.rawValue), negative: negative, bipolar: bipolar, curve: curve)
    }

    private init(raw: UInt16, negative: Bool, bipolar: Bool, curve: Curve) {
        rawValue = raw | (negative ? 0x100 : 0) | (bipolar ? 0x200 : 0) | UInt16(curve.rawValue) << 10
    }

    public static let none = SoundFontModulatorSource(rawValue: 0)

    public var description: String {
        let what = isController ? "CC\(index)" : (general.map { "\($0)" } ?? "source \(index)")
        let shape = [
            curve.map { "\($0)" } ?? "type \(rawValue >> 10)", isBipolar ? "bipolar" : "unipolar",
            isNegative ? "negative" : "positive",
        ]
        return isNone ? "none" : "\(what) (\(shape.joined(separator: ", ")))"
    }
}

/// A modulator (spec §8.2, §9.5): `amount × map(source) × map(amountSource)` is added to the
/// destination generator's value, in that generator's units. Value type; any thread.
@PublicInit
public struct SoundFontModulator: Sendable, Equatable, CustomStringConvertible {
    public var source: SoundFontModulatorSource
    public var destination: SoundFontGenerator
    /// In the destination's units per full-scale source excursion. A 16-bit number in the file;
    /// wider here because combining zones adds amounts (`SoundFontCombination`).
    public var amount: Int
    public var amountSource: SoundFontModulatorSource = .none
    /// 0 = linear, 2 = absolute value (spec §8.3). FluidSynth 2.3 turns off modulators with any
    /// transform other than 0 (their amount reads 0 after loading); so does the loader.
    public var transform: UInt16 = 0

    /// FluidSynth's identity (defsfont, mod `fluid_mod_test_identity`): same sources and
    /// destination. The spec also compares the transform; FluidSynth does not, and nor do we.
    public func isIdentical(to other: SoundFontModulator) -> Bool {
        source == other.source && destination == other.destination && amountSource == other.amountSource
    }

    public var description: String {
        let scaled = amountSource.isNone ? "" : " × \(amountSource)"
        return "\(source)\(scaled) → \(destination.specName) \(amount)"
    }
}
