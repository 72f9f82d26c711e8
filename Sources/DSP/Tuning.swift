import MemberwiseInit
#if canImport(Glibc)
import Glibc
#endif

/// The player's calibration of pitch: the A4 reference plus the MIDI master tuning RPNs, as one
/// offset in semitones that a sampler voice or a synth voice adds to its note. Pure value; any thread.
@PublicInit
public struct MasterTuning: Sendable, Equatable {
    /// Frequency of A4 (note 69), Hz (e.g. 442 for many orchestras).
    public var a4Hz: Double = 440
    /// RPN 1 (channel fine tuning), −100…+100 cents.
    public var fineCents: Double = 0
    /// RPN 2 (channel coarse tuning), −64…+63 semitones.
    public var coarseSemitones: Double = 0

    /// A channel's tuning from its RPN 1 14-bit data value and RPN 2 data MSB, under `a4Hz`.
    public init(a4Hz: Double, fineTuningData: Int, coarseTuningData: Int) {
        self.init(a4Hz: a4Hz, fineCents: Self.fineTuningCents(dataValue: fineTuningData),
                  coarseSemitones: Self.coarseTuningSemitones(dataMSB: coarseTuningData))
    }

    public static let a4Range = 400.0...480.0

    /// Semitones to add to a note's equal-tempered pitch (relative to A4 = 440 Hz).
    public var offsetSemitones: Double { Self.a4Semitones(a4Hz) + coarseSemitones + fineCents / 100 }

    /// The A4 reference alone, in semitones from 440 Hz: the one logarithm of the tuning, which an
    /// instrument takes once per A4 change and not per voice or per block.
    @_noAllocation
    public static func a4Semitones(_ a4Hz: Double) -> Double { 12 * log2(a4Range.clamp(a4Hz) / 440) }

    /// A channel's RPN 1/2 tuning alone, in semitones (no logarithm: per block is fine).
    @_noAllocation
    public static func channelSemitones(fineTuningData: Int, coarseTuningData: Int) -> Double {
        coarseTuningSemitones(dataMSB: coarseTuningData) + fineTuningCents(dataValue: fineTuningData) / 100
    }

    /// Frequency of MIDI note `note` (fractional for bends) under this tuning, Hz.
    public func frequency(ofNote note: Double) -> Double {
        440 * pow(2, (note - 69 + offsetSemitones) / 12)
    }

    /// RPN 1's 14-bit data value (MSB·128 + LSB, centre 8192) in cents: 0 → −100, 16383 → +99.99.
    public static func fineTuningCents(dataValue: Int) -> Double {
        Double(min(max(dataValue, 0), 16383) - 8192) / 8192 * 100
    }

    /// RPN 2's data MSB (centre 64) in semitones: 0 → −64, 127 → +63.
    public static func coarseTuningSemitones(dataMSB: Int) -> Double {
        Double(min(max(dataMSB, 0), 127) - 64)
    }
}

/// The master A4 as an instrument keeps it: the frequency and its one logarithm, taken when it
/// is set (not per voice or per block). Render-thread safe.
public struct A4Reference: Sendable {
    public private(set) var hertz = 440.0
    /// `MasterTuning.a4Semitones(hertz)`.
    public private(set) var semitones = 0.0

    public init() {}

    @_noAllocation
    public mutating func set(_ a4Hz: Double) {
        hertz = a4Hz
        semitones = MasterTuning.a4Semitones(a4Hz)
    }
}

/// How key velocity maps to the velocity the instrument sees, applied before a preset's own
/// curve: v_out = 127 · (v/127)^γ. Soft (γ = 0.5) makes light playing louder, hard (γ = 2) asks
/// for more force; 0 stays 0 (a note-on with velocity 0 is a note-off) and 127 stays 127.
public enum VelocityCurve: Sendable, Equatable {
    case linear, soft, hard
    case gamma(Double)

    /// Exponents `gamma(_:)` accepts (others are clamped into it).
    public static let gammaRange = 0.1...10.0

    public var exponent: Double {
        @_noAllocation get {
            switch self {
            case .linear: 1
            case .soft: 0.5
            case .hard: 2
            case .gamma(let g): g.isFinite ? Self.gammaRange.clamp(g) : 1
            }
        }
    }

    /// The mapped velocity, 1…127 for 1…127 (never 0: that would turn a note-on into a note-off).
    @_noAllocation
    public func apply(_ velocity: UInt8) -> UInt8 {
        guard velocity > 0 else { return 0 }
        let v = min(Double(velocity), 127) / 127
        return UInt8(min(max(RealTimeMath.round(127 * pow(v, exponent)), 1), 127))
    }
}
