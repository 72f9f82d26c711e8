import DSP
import MemberwiseInit

/// One sample mapped onto a key and velocity range, as an AUSampler zone. Value type filled on the
/// control thread and handed to `SamplerProgram.init`.
public struct SamplerZone: Sendable {
    public var waveform: SamplerWaveform
    /// Inclusive key range (after the layer's key offset is applied to the played key).
    public var minKey: Int = 0
    public var maxKey: Int = 127
    /// Inclusive note-on velocity range.
    public var minVelocity: Int = 1
    public var maxVelocity: Int = 127
    /// Key at which the waveform plays unshifted.
    public var rootKey: Int = 60
    /// Fine tuning, cents (coarse tune folds in as 100 cents per semitone).
    public var tuneCents: Double = 0
    /// False: every key plays at the root pitch (drum pads).
    public var pitchTracking: Bool = true
    public var gainDecibels: Double = 0
    /// −1 hard left … +1 hard right.
    public var pan: Double = 0
    /// Sustain loop; nil plays the waveform once to its end. Defaults to the waveform's own loop.
    public var loop: SamplerLoop?
    /// Ignores note-off and plays to the end of the waveform (loops are not entered).
    public var isOneShot: Bool = false
    /// Index into the program's `layers`.
    public var layerIndex: Int = 0
    /// Disabled zones are kept (for inspection) but never sound.
    public var isEnabled: Bool = true
    /// A SoundFont zone: its generators and modulators drive the voice (envelopes, LFOs, filter,
    /// level, pan, pitch from `soundFont.rootKey`), and the layer's articulation, `gainDecibels`,
    /// `pan`, `tuneCents` and `pitchTracking` are not used. `rootKey`/`tuneCents` still tell level
    /// building how far notes transpose.
    public var soundFont: SF2ZoneArticulation?
    /// Every note the zone plays sounds at its sample's own pitch, whatever the song does (a
    /// render's song known: its channels never bend, tune or ask for vibrato, and the zone's keys,
    /// tunings and pitch modulation leave the root as it is). At the sample's own rate its voices
    /// then step one frame per output frame and read the frames themselves, so its region needs no
    /// levels there (`LevelRequest.needsLevels(atOutputRate:)`). False when unknown.
    public var playsAtRootPitch: Bool = false

    public init(waveform: SamplerWaveform, layerIndex: Int = 0, rootKey: Int = 60) {
        self.waveform = waveform
        self.layerIndex = layerIndex
        self.rootKey = rootKey
        self.loop = waveform.naturalLoop
    }
}

/// How note-on velocity sets the voice gain.
public enum SamplerVelocityCurve: Sendable, Equatable {
    /// DLS default articulation (velocity → attenuation, −96 dB, concave, inverted):
    /// gain = 40·log10(v/127) dB, floored at −96 dB. 127 → 0 dB, 64 → −11.9 dB, 32 → −23.9 dB.
    case dlsConcave
    /// Amplitude proportional to velocity: 20·log10(v/127) dB.
    case linear
    /// Velocity does not change the level.
    case ignored
}

/// The per-layer resonant filter (AUSampler `Filters`): a 12 dB/octave biquad of `kind` whose
/// resonance in dB is its gain at the cutoff (`BiquadCoefficients.q(resonanceDecibels:)`).
@PublicInit
public struct SamplerFilterSettings: Sendable, Equatable {
    public var isEnabled: Bool = false
    public var kind: BiquadCoefficients.Kind = .lowPass
    public var cutoffHz: Double = 20_000
    public var resonanceDecibels: Double = 0
}

/// How far a layer's LFO swings one destination: its output (−1…1) times `amount`, in the
/// destination's unit, times the value of `controller` (0…1) when one scales it (mod wheel → vibrato).
@PublicInit
public struct SamplerLFODepth: Sendable, Equatable {
    public var amount: Double
    /// A MIDI controller 0…127 whose value/127 scales the depth; nil = full depth.
    public var controller: Int? = nil
}

/// A layer's LFO and where it goes. Every voice runs its own copy from note-on, so the delay and
/// fade-in count from each note (AUSampler's LFO belongs to the voice: a delayed vibrato starts
/// anew on every note, which a part-wide LFO could not do).
@PublicInit
public struct SamplerLFO: Sendable, Equatable {
    public var oscillator: LowFrequencyOscillator.Settings
    /// Pitch swing, cents.
    public var pitch: SamplerLFODepth? = nil
    /// Filter cutoff swing, cents (only heard when the layer's filter is on).
    public var cutoff: SamplerLFODepth? = nil
    /// Level swing, dB (the output is × 10^(depth·lfo/20): tremolo).
    public var gain: SamplerLFODepth? = nil
    /// Pan swing in pan positions (−1 hard left … +1 hard right).
    public var pan: SamplerLFODepth? = nil

    /// Routes nothing: no voice runs it.
    public var isSilent: Bool { pitch == nil && cutoff == nil && gain == nil && pan == nil }

    /// The default of code-built layers: a 5 Hz sine vibrato of ±50 cents with the mod wheel up.
    public static let modWheelVibrato = SamplerLFO(
        oscillator: .init(waveform: .sine, rateHz: 5), pitch: SamplerLFODepth(amount: 50, controller: 1))
}

/// A DLS-style linear modulation amount: a normalised source x ∈ 0…1 adds
/// `atZero + (atOne − atZero)·x` to its destination (in the destination's unit).
@PublicInit
public struct SamplerModulationAmount: Sendable, Equatable {
    public var atZero: Double = 0
    public var atOne: Double

    public func value(_ x: Double) -> Double { atZero + (atOne - atZero) * x }
}

/// What moves a layer's filter cutoff, in cents on top of `SamplerFilterSettings.cutoffHz`.
/// Sources: key (key/128), velocity (v/127), one controller (value/127), the filter envelope
/// (its level 0…1).
public struct SamplerFilterModulation: Sendable, Equatable {
    public var byKey: SamplerModulationAmount?
    public var byVelocity: SamplerModulationAmount?
    /// A controller number (e.g. 74 "brightness") and its amount.
    public var controller: Int?
    public var byController: SamplerModulationAmount?
    /// The filter envelope (AUSampler envelope ID 1) and its amount.
    public var envelope: EnvelopeSettings?
    public var byEnvelope: SamplerModulationAmount?

    public init() {}

    public var isEmpty: Bool { self == SamplerFilterModulation() }
}

/// Settings shared by the zones of one layer: envelope, filter, controller response, LFO.
public struct SamplerLayer: Sendable {
    public var ampEnvelope = EnvelopeSettings(attackSeconds: 0, decaySeconds: 0, sustainLevel: 1, releaseSeconds: 0.5)
    /// Added to the played key before zone lookup and pitch (AUSampler `key offset`), semitones.
    public var keyOffset: Int = 0
    /// Inclusive range of played keys the layer answers (before the key offset).
    public var minKey: Int = 0
    public var maxKey: Int = 127
    public var gainDecibels: Double = 0
    public var tuneCents: Double = 0
    public var filter = SamplerFilterSettings()
    public var filterModulation = SamplerFilterModulation()
    public var velocityCurve: SamplerVelocityCurve = .dlsConcave
    /// CC7 volume and CC11 expression scale the level with the DLS concave curve when true.
    public var respondsToVolume = true
    public var respondsToExpression = true
    /// CC10 moves the pan when true.
    public var respondsToPan = true
    /// Full pitch-bend deflection, semitones (DLS default: 2).
    public var pitchBendRangeSemitones: Double = 2
    /// The layer's LFO (per voice); nil = none.
    public var lfo: SamplerLFO? = .modWheelVibrato
    /// Every zone of the layer is one-shot (AUSampler `trigger mode` 11).
    public var isOneShot = false

    public init() {}
}

/// Program-wide parameters (AUSampler top-level `gain`, `pan`, `coarse/fine tune`, `voice count`).
@PublicInit
public struct SamplerGlobals: Sendable, Equatable {
    public var gainDecibels: Double = 0
    public var pan: Double = 0
    public var tuneCents: Double = 0
    /// Polyphony: the most voices sounding at once before the oldest/quietest is stolen.
    public var voiceCount: Int = 64
    /// For a program made for one known song (a render): the largest upward pitch shift its
    /// bends and tunings ask beyond the keys, semitones (`LevelBuildPlan.pitchShiftSemitones`).
    /// Levels then reach just that far; nil (live): the bend range, at least 2, + 2 semitones.
    public var knownPitchShiftSemitones: Double? = nil
}
