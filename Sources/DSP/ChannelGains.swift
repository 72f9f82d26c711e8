#if canImport(Glibc)
import Glibc
#endif

/// The DLS concave transform that MIDI volume, expression and velocity go through, and the CC10
/// pan mapping. Pure functions; any thread.
///
/// DLS2 defines `concave(x) = −(20/96)·log10((1 − x)²)`; applied inverted (x = 1 − v/127) with a
/// −96 dB scale it simplifies exactly to `40·log10(v/127)` dB, floored at −96 dB.
public enum ConcaveCurve {
    public static let floorDecibels = -96.0

    @_noAllocation
    public static func gainDecibels(_ value: Int) -> Double {
        guard value > 0 else { return floorDecibels }
        return max(floorDecibels, 40 * log10(Double(min(value, 127)) / 127))
    }

    /// Linear gain (0 at value 0).
    @_noAllocation
    public static func gain(_ value: Int) -> Double {
        value <= 0 ? 0 : pow(10, gainDecibels(value) / 20)
    }

    /// Pan offset for a CC10 value: 0 → −1 (left), 64 → 0 (centre), 127 → +1 (right).
    @_noAllocation
    public static func pan(controllerValue: Int) -> Double {
        let v = Double(max(0, min(controllerValue, 127)))
        return v <= 64 ? (v - 64) / 64 : (v - 64) / 63
    }
}

/// One MIDI channel's CC7 volume, CC11 expression and CC10 pan as smoothed values, so a jump never
/// steps (10 ms ramps). Volume starts at CC7 = 100 (General MIDI's default), expression at unity,
/// pan centred. An instrument snaps them to their targets while the channel is silent (`snap`),
/// so a value sent before a note holds from that note's first frame. Render-thread safe value type.
public struct ChannelGains {
    public static let rampSeconds = 0.010
    /// CC7's value at start and after a reset.
    public static let defaultVolumeController = 100

    public var volume: LinearSmoother
    public var expression: LinearSmoother
    /// Pan offset −1…1.
    public var pan: LinearSmoother

    public init(sampleRate: Double) {
        volume = LinearSmoother(
            value: Float(ConcaveCurve.gain(Self.defaultVolumeController)), sampleRate: sampleRate, rampSeconds: Self.rampSeconds)
        expression = LinearSmoother(value: 1, sampleRate: sampleRate, rampSeconds: Self.rampSeconds)
        pan = LinearSmoother(value: 0, sampleRate: sampleRate, rampSeconds: Self.rampSeconds)
    }

    @_noAllocation
    public mutating func setVolume(_ value: Int) { volume.setTarget(Float(ConcaveCurve.gain(value))) }
    @_noAllocation
    public mutating func setExpression(_ value: Int) { expression.setTarget(Float(ConcaveCurve.gain(value))) }
    @_noAllocation
    public mutating func setPan(_ value: Int) { pan.setTarget(Float(ConcaveCurve.pan(controllerValue: value))) }

    public var isRamping: Bool { @_noAllocation get { volume.isRamping || expression.isRamping || pan.isRamping } }

    /// Jumps every smoother to its target (nothing is sounding that a step could be heard in).
    @_noAllocation
    public mutating func snap() {
        volume.snap(to: volume.target)
        expression.snap(to: expression.target)
        pan.snap(to: pan.target)
    }

    /// Moves the smoothers on by `frames`.
    @_noAllocation
    public mutating func advance(frames: Int) {
        guard isRamping else { return }
        for _ in 0..<frames {
            _ = volume.next()
            _ = expression.next()
            _ = pan.next()
        }
    }
}
