#if canImport(Glibc)
import Glibc
#endif

/// A ring modulator: multiplies the input by a cosine carrier. The carrier frequency glides
/// linearly to each new value (10 ms) and its phase is continuous, so sweeps never click.
/// At 0 Hz the carrier is a constant 1 (the input passes unchanged). Render-thread safe value type.
public struct RingModulator {
    /// Upper limit of the carrier, in Hz.
    public static let maximumCarrierHz = 4000.0
    @usableFromInline var phase = 0.0
    @usableFromInline var frequency: LinearSmoother
    @usableFromInline let radiansPerHzPerFrame: Double

    public init(sampleRate: Double, carrierHz: Double = 440) {
        radiansPerHzPerFrame = 2 * Double.pi / sampleRate
        frequency = LinearSmoother(value: Float(min(max(carrierHz, 0), Self.maximumCarrierHz)), sampleRate: sampleRate)
    }

    /// New carrier frequency in Hz (clamped to 0…4000), reached after a 10 ms glide. Render-thread safe.
    @_noAllocation
    public mutating func setCarrierHz(_ hz: Double) {
        frequency.setTarget(Float(min(max(hz, 0), Self.maximumCarrierHz)))
    }

    /// The carrier for the next frame.
    @inlinable
    @_noAllocation
    public mutating func nextCarrier() -> Float {
        let c = Float(cos(phase))
        phase += radiansPerHzPerFrame * Double(frequency.next())
        if phase > 2 * Double.pi { phase -= 2 * Double.pi }
        return c
    }

    /// Modulates a stereo block in place with one shared carrier. Render-thread safe.
    @inlinable
    @_noAllocation
    public mutating func process(_ block: StereoBlock) {
        for i in 0..<block.frames {
            let c = nextCarrier()
            block.left[i] *= c
            block.right[i] *= c
        }
    }

    /// Restarts the carrier at phase 0 on its target frequency.
    @_noAllocation
    public mutating func reset() {
        phase = 0
        frequency.snap(to: frequency.target)
    }
}
