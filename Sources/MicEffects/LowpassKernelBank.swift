#if canImport(Glibc)
import Glibc
#endif
import DSP

/// Windowed-sinc low-pass kernels designed once, at init, on the control thread: one every
/// 1/24 octave from 20 Hz to 4 kHz, each calibrated so its −6 dB point is exactly its cutoff.
/// The render thread blends two neighbours linearly (the blend's response is the blend of the
/// responses, so the −6 dB point moves smoothly between them, well within 1 %).
///
/// Why a bank rather than designing on a control thread: the cutoff is a smoothed parameter the
/// engine sets at block start; with the bank, every intermediate cutoff of a glide is available
/// at once on the render thread, offline and live behave identically, and there is no hand-over
/// protocol to get wrong. It costs 185 × 101 floats (75 KB) and ≈ 7 M instructions of design at
/// init (one shared window, sines by recurrence: see `WindowedSinc.Design`).
final class LowpassKernelBank {
    static var tapCount: Int { LowpassBank.tapCount }
    static var lowestHz: Double { LowpassBank.lowestHz }
    static var highestHz: Double { LowpassBank.highestHz }
    static var kernelsPerOctave: Double { LowpassBank.kernelsPerOctave }

    let count: Int
    /// `count` kernels of `tapCount` taps, back to back.
    let taps: UnsafeMutablePointer<Float>

    init(sampleRate: Double) {
        count = Int((log2(Self.highestHz / Self.lowestHz) * Self.kernelsPerOctave).rounded(.up)) + 1
        taps = .allocate(capacity: count * Self.tapCount)
        let design = WindowedSinc.Design(taps: Self.tapCount, sampleRate: sampleRate)
        // Every cutoff below the floor gets the same kernel, the bare window (≈ 107 of 185 at 48 kHz).
        let floorKernel = design.kernel(designCutoffHz: 0)
        for j in 0..<count {
            let hz = Self.lowestHz * pow(2, Double(j) / Self.kernelsPerOctave)
            let kernel = hz <= design.floorHz ? floorKernel : design.kernel(halfGainHz: hz)
            (taps + j * Self.tapCount).initialize(from: kernel, count: Self.tapCount)
        }
    }

    deinit { taps.deallocate() }

    /// Fractional kernel index for a cutoff in Hz (clamped to the bank).
    @_noAllocation
    func position(forCutoffHz hz: Double) -> Float {
        typealias B = LowpassBank
        let clamped = min(max(hz.isFinite ? hz : B.highestHz, B.lowestHz), B.highestHz)
        return Float(min(RealTimeMath.log2(clamped / B.lowestHz) * B.kernelsPerOctave, Double(count - 1)))
    }

    /// Kernel `j` (0..<count).
    @_noAllocation
    func kernel(_ j: Int) -> UnsafeMutablePointer<Float> { taps + j * LowpassBank.tapCount }

    /// Writes the blend of the kernels around `position` into `destination`.
    @_noAllocation
    func blend(at position: Float, into destination: UnsafeMutablePointer<Float>) {
        let (j, t) = split(position)
        let a = kernel(j), b = kernel(j + 1)
        for k in 0..<LowpassBank.tapCount { destination[k] = a[k] + t * (b[k] - a[k]) }
    }

    /// Lower kernel index and blend weight of the upper one; index ≤ count − 2.
    @_noAllocation
    func split(_ position: Float) -> (Int, Float) {
        let j = min(max(Int(position), 0), count - 2)
        return (j, min(max(position - Float(j), 0), 1))
    }
}

/// The bank's layout, outside the class (a class's statics are initialised behind a lock).
enum LowpassBank {
    static let tapCount = 101
    static let lowestHz = 20.0
    static let highestHz = 4000.0
    static let kernelsPerOctave = 24.0
}
