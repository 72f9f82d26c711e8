import DSP
import Sampler

/// One entry of a program table: a sound (`"Keys.aupreset"`, `"synth"`, `"none"`), or a preset
/// with settings applied to its layers at load, so that one preset can serve a family honestly:
/// `{"preset": "Keys.aupreset", "gain": -3, "envelope": {"decay": 6, "sustain": 0}}`.
public enum ProgramEntry: Codable, Sendable, Equatable {
    case sound(String)
    case preset(ProgramSettings)

    public init(from decoder: Decoder) throws {
        // An object first (what a full table holds): a failed attempt throws, and throwing is dear.
        if (try? decoder.container(keyedBy: AnyCodingKey.self)) != nil {
            self = .preset(try ProgramSettings(from: decoder))
        } else {
            self = .sound(try decoder.singleValueContainer().decode(String.self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .sound(let name): try c.encode(name)
        case .preset(let settings): try c.encode(settings)
        }
    }
}

/// A preset and what the program changes of it. Every key but `preset` is optional; what an
/// entry leaves out keeps the preset's own value. Checked when read: a value out of range is an
/// error naming its key.
public struct ProgramSettings: Codable, Sendable, Equatable, Hashable {
    public var preset: String
    /// What summaries and logs call the program (e.g. "Acoustic Grand Piano"); default the preset's name.
    public var name: String?
    /// Added to the program's level, dB.
    public var gain: Double?
    public var envelope: Envelope?
    /// Setting it turns the layers' filter on.
    public var filter: Filter?
    /// How note-on velocity sets the level: `concave` (the DLS default, 40·log10(v/127) dB),
    /// `linear` (20·log10(v/127) dB) or `none`.
    public var velocity: String?
    /// false: looped samples play once to their end (their sustain loop is not entered).
    public var loop: Bool?
    /// true: notes ignore note-off and play their samples to the end (drum pads).
    public var oneShot: Bool?

    /// The amp envelope, seconds and a sustain level 0…1. Decay and release given here are
    /// exponential (`EnvelopeCurve.convex`: −20 dB at half the time, silence at the end), as a
    /// struck or plucked string dies away.
    public struct Envelope: Codable, Sendable, Equatable, Hashable {
        public var delay: Double?
        public var attack: Double?
        public var hold: Double?
        public var decay: Double?
        public var sustain: Double?
        public var release: Double?

        public init(from decoder: Decoder) throws {
            try rejectUnknownKeys(decoder, known: ["delay", "attack", "hold", "decay", "sustain", "release"])
            let c = try decoder.container(keyedBy: CodingKeys.self)
            func seconds(_ key: CodingKeys) throws -> Double? {
                try checked(c, key, in: 0...ProgramSettings.maxSeconds, "seconds, 0–\(Int(ProgramSettings.maxSeconds))")
            }
            delay = try seconds(.delay)
            attack = try seconds(.attack)
            hold = try seconds(.hold)
            decay = try seconds(.decay)
            sustain = try checked(c, .sustain, in: 0...1, "a level 0–1 (1 = the attack's peak)")
            release = try seconds(.release)
        }

        func apply(to settings: inout EnvelopeSettings) {
            settings.delaySeconds = delay ?? settings.delaySeconds
            settings.attackSeconds = attack ?? settings.attackSeconds
            settings.holdSeconds = hold ?? settings.holdSeconds
            settings.sustainLevel = sustain ?? settings.sustainLevel
            if let decay {
                settings.decaySeconds = decay
                settings.decayCurve = .convex
            }
            if let release {
                settings.releaseSeconds = release
                settings.releaseCurve = .convex
            }
        }
    }

    /// The layers' 12 dB/octave filter: `type` lowpass (default), highpass or bandpass; `cutoff`
    /// Hz; `resonance` dB at the cutoff (default 0).
    public struct Filter: Codable, Sendable, Equatable, Hashable {
        public var type: String?
        public var cutoff: Double
        public var resonance: Double?

        public init(from decoder: Decoder) throws {
            try rejectUnknownKeys(decoder, known: ["type", "cutoff", "resonance"])
            let c = try decoder.container(keyedBy: CodingKeys.self)
            type = try c.decodeIfPresent(String.self, forKey: .type)
            if let type, Self.kinds[type] == nil {
                throw DecodingError.dataCorruptedError(
                    forKey: .type, in: c, debugDescription: "'\(type)' is not a filter type (use lowpass, highpass or bandpass)")
            }
            guard let cutoff = try checked(c, .cutoff, in: 20...20_000, "Hz, 20–20000") else {
                throw DecodingError.keyNotFound(CodingKeys.cutoff, .init(codingPath: c.codingPath, debugDescription: "a filter needs a cutoff"))
            }
            self.cutoff = cutoff
            resonance = try checked(c, .resonance, in: -20...40, "dB, −20–40")
        }

        static let kinds: [String: BiquadCoefficients.Kind] = ["lowpass": .lowPass, "highpass": .highPass, "bandpass": .bandPass]

        var settings: SamplerFilterSettings {
            SamplerFilterSettings(isEnabled: true, kind: Self.kinds[type ?? "lowpass"] ?? .lowPass, cutoffHz: cutoff, resonanceDecibels: resonance ?? 0)
        }
    }

    static let maxSeconds = 100.0
    static let velocityCurves: [String: SamplerVelocityCurve] = ["concave": .dlsConcave, "linear": .linear, "none": .ignored]

    public init(preset: String) { self.preset = preset }

    public init(from decoder: Decoder) throws {
        try rejectUnknownKeys(decoder, known: ["preset", "name", "gain", "envelope", "filter", "velocity", "loop", "oneShot"])
        let c = try decoder.container(keyedBy: CodingKeys.self)
        preset = try c.decode(String.self, forKey: .preset)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        gain = try checked(c, .gain, in: -60...24, "dB, −60–24")
        envelope = try c.decodeIfPresent(Envelope.self, forKey: .envelope)
        filter = try c.decodeIfPresent(Filter.self, forKey: .filter)
        velocity = try c.decodeIfPresent(String.self, forKey: .velocity)
        if let velocity, Self.velocityCurves[velocity] == nil {
            throw DecodingError.dataCorruptedError(
                forKey: .velocity, in: c, debugDescription: "'\(velocity)' is not a velocity curve (use concave, linear or none)")
        }
        loop = try c.decodeIfPresent(Bool.self, forKey: .loop)
        oneShot = try c.decodeIfPresent(Bool.self, forKey: .oneShot)
    }

    /// True when the entry changes nothing of the preset (a name alone is only a label).
    var changesNothing: Bool {
        var plain = ProgramSettings(preset: preset)
        plain.name = name
        return self == plain
    }

    /// `program` with these settings: a new program over the same waveforms, so it shares their
    /// decoded frames, loop copies and band-limited levels (`SampleFiles`, `LevelStore`).
    func applied(to program: SamplerProgram) throws(SamplerProgramError) -> SamplerProgram {
        var layers = program.layers
        for index in layers.indices {
            envelope?.apply(to: &layers[index].ampEnvelope)
            if let filter { layers[index].filter = filter.settings }
            if let velocity, let curve = Self.velocityCurves[velocity] { layers[index].velocityCurve = curve }
            if let oneShot { layers[index].isOneShot = oneShot }
        }
        var zones = program.zones
        if loop == false {
            for index in zones.indices { zones[index].loop = nil }
        }
        var globals = program.globals
        globals.gainDecibels += gain ?? 0
        return try SamplerProgram(layers: layers, zones: zones, globals: globals)
    }
}

/// Refuses keys a settings object does not know (a misspelt `"decy"` would otherwise be ignored).
private func rejectUnknownKeys(_ decoder: Decoder, known: Set<String>) throws {
    let any = try decoder.container(keyedBy: AnyCodingKey.self)
    for key in any.allKeys where !known.contains(key.stringValue) {
        throw DecodingError.dataCorruptedError(
            forKey: key, in: any, debugDescription: "unknown key '\(key.stringValue)' (use \(known.sorted().joined(separator: ", ")))")
    }
}

/// A number at `key`, if present, within `range`; `what` says the unit and range in the error.
private func checked<Key: CodingKey>(
    _ c: KeyedDecodingContainer<Key>, _ key: Key, in range: ClosedRange<Double>, _ what: String
) throws -> Double? {
    guard let value = try c.decodeIfPresent(Double.self, forKey: key) else { return nil }
    guard range.contains(value) else {
        throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "\(value) is out of range (\(what))")
    }
    return value
}

private struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
