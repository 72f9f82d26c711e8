/// One pitch measurement.
public struct PitchEstimate: Sendable, Equatable {
    /// Fundamental frequency in Hz (0 when nothing periodic was found).
    public var frequencyHz: Double
    /// 0…1: how periodic the frame is (1 − YIN's normalised difference at the chosen period).
    public var confidence: Double
    /// True when the frame is periodic enough and loud enough to call it a pitch.
    public var voiced: Bool

    /// No pitch.
    public static let unvoiced = PitchEstimate(frequencyHz: 0, confidence: 0, voiced: false)
}
