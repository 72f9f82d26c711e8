import DSP

/// The DLS default-articulation transforms the sampler applies to velocity and controllers.
///
/// DLS2 defines the concave transform as `concave(x) = −(20/96)·log10((1 − x)²)` (clamped to 0…1).
/// Velocity, CC7 and CC11 reach attenuation through it *inverted* (x = 1 − v/127) with a scale of
/// −96 dB, which simplifies exactly to `attenuation = 40·log10(v/127) dB`, floored at −96 dB.
/// Pure functions; safe on any thread.
public enum ControllerCurves {
    /// Floor of the concave curve: DLS scales the transform by 96 dB.
    public static let concaveFloorDecibels = ConcaveCurve.floorDecibels

    /// Gain in dB for a 0…127 value under the inverted DLS concave curve: 40·log10(v/127), ≥ −96.
    public static func concaveGainDecibels(_ value: Int) -> Double { ConcaveCurve.gainDecibels(value) }

    /// Linear gain for the inverted DLS concave curve (0 at value 0).
    public static func concaveGain(_ value: Int) -> Double { ConcaveCurve.gain(value) }

    /// Velocity gain (linear) for a layer's curve.
    public static func velocityGain(_ velocity: Int, curve: SamplerVelocityCurve) -> Double {
        switch curve {
        case .dlsConcave: concaveGain(velocity)
        case .linear: Double(max(0, min(velocity, 127))) / 127
        case .ignored: 1
        }
    }

    /// Pan offset for CC10: 0 → −1 (left), 64 → 0 (centre), 127 → +1 (right).
    public static func pan(controllerValue: Int) -> Double { ConcaveCurve.pan(controllerValue: controllerValue) }
}
