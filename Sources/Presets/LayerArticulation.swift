/// A layer's filter (`Filters` is a single dict, not an array).
import MemberwiseInit

@PublicInit
public struct Filter: Sendable, Equatable {
    public var enabled: Bool = false
    /// `cutoff`, Hz (default 20000 = open).
    public var cutoffHz: Double = 20000
    /// `resonance`, dB (default 0).
    public var resonanceDecibels: Double = 0
    /// `type`: only 40 (resonant low-pass, [GUESS]) is ever seen; `nil` when absent.
    public var type: Int? = nil

    /// What `type` names: 40 low-pass (the only code seen in files); 41 high-pass and 42
    /// band-pass follow it [GUESS: no file or document shows them]; absent = low-pass.
    public var kind: FilterKind { FilterKind(code: type) }
}

/// A layer filter's response (`Filter.type`).
public enum FilterKind: StoredCode {
    case lowPass, highPass, bandPass
    case unknown(Int)

    public static let namedCodes: [(value: FilterKind, code: Int)] = [(.lowPass, 40), (.highPass, 41), (.bandPass, 42)]
    public var unknownCode: Int? { if case .unknown(let code) = self { code } else { nil } }

    public init(code: Int?) { self = code.map(Self.init(rawValue:)) ?? .lowPass }
}

/// A stage's `curve` code. Only 20 (every stage but the amp attack) and 22 (the amp envelope's
/// attack, AU's default) are seen in files. [GUESS, no document found] 20 linear, 22 convex (fast
/// rise, then easing into the peak: the analogue-style attack a default would be), 21 concave.
public enum StageCurve: StoredCode {
    case linear, convex, concave
    case unknown(Int)

    public static let namedCodes: [(value: StageCurve, code: Int)] = [(.linear, 20), (.concave, 21), (.convex, 22)]
    public var unknownCode: Int? { if case .unknown(let code) = self { code } else { nil } }

    /// Absent = linear.
    public init(code: Int?) { self = code.map(Self.init(rawValue:)) ?? .linear }
}

/// One envelope (`Stages` 0–6). Times are seconds, sustain is a linear level 0…1.
/// It only shapes something if a connection routes its output (env 0 → amp gain by default).
public struct Envelope: Sendable, Equatable {
    /// The stage-6 time every AU-written file has: 5 ms stored as Float32.
    public static let defaultFastReleaseSeconds = 0.004999999888241291

    public var id: Int
    public var enabled: Bool
    public var delaySeconds: Double  // stage 0
    public var attackSeconds: Double  // stage 1
    public var holdSeconds: Double  // stage 2
    public var decaySeconds: Double  // stage 3
    public var sustainLevel: Double  // stage 4 (`level`)
    public var releaseSeconds: Double  // stage 5
    /// Stage 6: always 5 ms in real files; [GUESS] a fast release used when a voice is stolen.
    public var fastReleaseSeconds: Double
    /// `curve` codes of the moving stages (`StageCurve`); nil when absent.
    public var attackCurve: Int?
    public var decayCurve: Int?
    public var releaseCurve: Int?

    public init(
        id: Int, enabled: Bool = true, delaySeconds: Double = 0, attackSeconds: Double = 0,
        holdSeconds: Double = 0, decaySeconds: Double = 0, sustainLevel: Double = 1,
        releaseSeconds: Double = 0, fastReleaseSeconds: Double = Envelope.defaultFastReleaseSeconds,
        attackCurve: Int? = nil, decayCurve: Int? = nil, releaseCurve: Int? = nil
    ) {
        self.id = id
        self.enabled = enabled
        self.delaySeconds = delaySeconds
        self.attackSeconds = attackSeconds
        self.holdSeconds = holdSeconds
        self.decaySeconds = decaySeconds
        self.sustainLevel = sustainLevel
        self.releaseSeconds = releaseSeconds
        self.fastReleaseSeconds = fastReleaseSeconds
        self.attackCurve = attackCurve
        self.decayCurve = decayCurve
        self.releaseCurve = releaseCurve
    }
}

/// One low-frequency oscillator of a layer.
@PublicInit
public struct LFO: Sendable, Equatable {
    public var id: Int
    public var enabled: Bool = true
    /// `rate`, Hz (default 3 [GUESS, AudioKit's default]).
    public var rateHz: Double = 3
    /// `delay`, seconds before the LFO starts (default 0).
    public var delaySeconds: Double = 0
    public var waveform: LFOWaveform = .triangle
}

/// LFO `waveform` codes (from AudioKit's preset builder; absent = triangle; only 28 seen in files).
public enum LFOWaveform: StoredCode {
    case triangle, sine, sawtooth, square, reverseSawtooth, sampleAndHold, randomInterpolated
    case unknown(Int)

    public static let namedCodes: [(value: LFOWaveform, code: Int)] = [
        (.triangle, 0), (.sine, 25), (.sawtooth, 26), (.square, 28), (.reverseSawtooth, 29), (.sampleAndHold, 75),
        (.randomInterpolated, 76),
    ]
    public var unknownCode: Int? { if case .unknown(let code) = self { code } else { nil } }
}
