import Spectral
import Synchronization

/// Values the mic chain measures on the render thread for the control thread (status line,
/// tuner, meters). Every field is a lock-free atomic: the render thread writes once per block,
/// any thread reads. Hold on to `MicChain.readouts`; it is `Sendable`.
public final class MicReadouts: Sendable {
    /// Strongest spectral peak of the input (parabolic-interpolated), in Hz; updated while the
    /// `fft` effect runs, 0 before.
    public let dominantFrequencyHz = PublishedFloat()
    /// Pitch of the input (YIN), updated while pitch tracking runs.
    public let pitch = PublishedPitch()
    /// Pitch the shifter is producing (input pitch × shift ratio), in Hz; 0 when unvoiced.
    public let shiftedPitchHz = PublishedFloat()
    /// Input peak level per channel in dBFS (meter ballistics: 20 dB/s fall).
    public let inputPeakDecibels = (left: PublishedFloat(-160), right: PublishedFloat(-160))
    /// Input RMS level per channel in dBFS (300 ms window).
    public let inputRMSDecibels = (left: PublishedFloat(-160), right: PublishedFloat(-160))
    /// Whether the pitch tracker runs on the input even when no effect needs it.
    let pitchTracking = Atomic<Bool>(false)
    /// The effect heard (`MicEffectKind.rawValue`), written by the render thread when it switches.
    let activeEffect = Atomic<UInt8>(0)

    /// The effect heard now.
    public var effect: MicEffectKind { MicEffectKind(rawValue: Int(activeEffect.load(ordering: .relaxed))) ?? .off }

    init() {}
}
