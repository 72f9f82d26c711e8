/// The effect a `MicChain` applies. Raw values are stable (they are stored in parameter tables).
public enum MicEffectKind: Int, CaseIterable, Sendable {
    /// The input unchanged.
    case off
    /// Ring modulation by a cosine carrier (0–4000 Hz).
    case ringmod
    /// Echo with feedback (up to 2 s).
    case delay
    /// Recursive moving average, 3–101 points (a gentle comb-notched low-pass).
    case average
    /// 101-tap windowed-sinc low-pass, −6 dB point 20 Hz–4 kHz.
    case lowpass
    /// STFT analysis/resynthesis pass-through with a dominant-frequency readout.
    case fft
    /// Phase-locked STFT pitch shift, ±12 semitones.
    case pitchshift

    /// The word `mic.effect` takes for it (its case name): parameter choices, `params`, help and
    /// tests all read it from here.
    public var name: String { String(describing: self) }
}
