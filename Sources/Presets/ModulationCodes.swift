/// What drives a connection (`source`) or scales it (`control`), decoded from the stored code.
/// Codes and confidence are in the format notes §7.1; `code` gives back the stored integer.
public enum ModulationSource: Sendable, Equatable, Hashable {
    /// Code 0: no source. As `source` it adds the constant amount (DLS "none"); as `control` it
    /// means "not scaled". (CC 0, bank select, is never a modulation source.)
    case constant
    /// Codes 1…127: that MIDI controller, normalised to 0…1.
    case controller(Int)
    /// 224: the pitch wheel.
    case pitchBend
    /// 241: the pitch-bend range (RPN 0), in semitones / 128 [INF from DLS]; default 2 semitones.
    case pitchBendRange
    /// 242: RPN 1 fine tuning [INF from DLS].
    case fineTuning
    /// 300: the note number.
    case key
    /// 301: the note-on velocity.
    case velocity
    /// 0x1000_0000 | layerID << 8 | index: an LFO's output.
    case lfo(layerID: Int, index: Int)
    /// 0x2000_0000 | layerID << 8 | index: an envelope's output (index 0 = amp envelope).
    case envelope(layerID: Int, index: Int)
    /// Anything else (e.g. 310, 320 from EXS imports), kept as stored.
    case unknown(Int)

    public init(code: Int) {
        let layerID = (code >> 8) & 0xFF
        let index = code & 0xFF
        switch code {
        case 0: self = .constant
        case 1...127: self = .controller(code)
        case 224: self = .pitchBend
        case 241: self = .pitchBendRange
        case 242: self = .fineTuning
        case 300: self = .key
        case 301: self = .velocity
        case _ where code & ~0xFFFF == 0x1000_0000: self = .lfo(layerID: layerID, index: index)
        case _ where code & ~0xFFFF == 0x2000_0000: self = .envelope(layerID: layerID, index: index)
        default: self = .unknown(code)
        }
    }

    /// The integer stored in the preset.
    public var code: Int {
        switch self {
        case .constant: return 0
        case .controller(let number): return number
        case .pitchBend: return 224
        case .pitchBendRange: return 241
        case .fineTuning: return 242
        case .key: return 300
        case .velocity: return 301
        case .lfo(let layerID, let index): return 0x1000_0000 | layerID << 8 | index
        case .envelope(let layerID, let index): return 0x2000_0000 | layerID << 8 | index
        case .unknown(let code): return code
        }
    }
}

/// What a connection modulates, decoded from `component << 28 | parameter << 20 | layerID << 8 |
/// index` (format notes §7.2). The layer ID bits are not part of the kind: see
/// `ModulationDestination.layerID(ofCode:)`.
public enum ModulationDestination: Sendable, Equatable, Hashable {
    /// 0x30B0_0000: oscillator pitch, cents.
    case pitch
    /// 0x5010_0000: amplifier gain, dB.
    case ampGain
    /// 0x5020_0000: amplifier pan (−0.5…0.5 = hard left…right).
    case pan
    /// 0x4150_0000: filter cutoff, cents.
    case filterCutoff
    /// 0x4160_0000: filter resonance, dB.
    case filterResonance
    /// Anything else (sample start, envelope time inputs, …), kept as stored.
    case unknown(Int)

    private static let kindMask = 0xFFF0_0000

    public init(code: Int) {
        guard code & 0xFF == 0 else {
            self = .unknown(code)
            return
        }
        switch code & Self.kindMask {
        case 0x30B0_0000: self = .pitch
        case 0x5010_0000: self = .ampGain
        case 0x5020_0000: self = .pan
        case 0x4150_0000: self = .filterCutoff
        case 0x4160_0000: self = .filterResonance
        default: self = .unknown(code)
        }
    }

    /// The stored code for this destination in layer `layerID`.
    public func code(layerID: Int) -> Int {
        let kind: Int
        switch self {
        case .pitch: kind = 0x30B0_0000
        case .ampGain: kind = 0x5010_0000
        case .pan: kind = 0x5020_0000
        case .filterCutoff: kind = 0x4150_0000
        case .filterResonance: kind = 0x4160_0000
        case .unknown(let code): return code
        }
        return kind | (layerID & 0xFF) << 8
    }

    /// The layer ID embedded in a destination code (bits 8–15).
    public static func layerID(ofCode code: Int) -> Int { (code >> 8) & 0xFF }
}

/// `transform`: the curve applied to the normalised source (AU stores DLS's code + 1).
public enum ConnectionTransform: StoredCode {
    /// 1
    case linear
    /// 2: DLS concave (used on velocity/CC7/CC11 → gain).
    case concave
    case unknown(Int)

    public static let namedCodes: [(value: ConnectionTransform, code: Int)] = [(.linear, 1), (.concave, 2)]
    public var unknownCode: Int? { if case .unknown(let code) = self { code } else { nil } }
}
