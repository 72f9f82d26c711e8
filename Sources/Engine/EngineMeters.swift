import Atomics

/// Readouts the render thread publishes for status displays: output peak/RMS per channel in dBFS,
/// sounding voices, and the last program change it saw. Relaxed atomics; readers see recent values.
public final class EngineMeters: @unchecked Sendable {
    private let outputPeak = (UnsafeAtomic<UInt64>.create(0), UnsafeAtomic<UInt64>.create(0))
    private let outputRMS = (UnsafeAtomic<UInt64>.create(0), UnsafeAtomic<UInt64>.create(0))
    private let voices = UnsafeAtomic<Int>.create(0)
    private let nonFinite = UnsafeAtomic<Int>.create(0)

    init() {}

    deinit {
        outputPeak.0.destroy(); outputPeak.1.destroy()
        outputRMS.0.destroy(); outputRMS.1.destroy()
        voices.destroy()
        nonFinite.destroy()
    }

    /// Render thread: a block held NaN or infinity and was silenced (its unit reset).
    func countNonFiniteBlock() { nonFinite.wrappingIncrement(ordering: .relaxed) }

    /// Blocks (of a bus or of the master output) silenced because they held NaN or infinity.
    public var nonFiniteBlocks: Int { nonFinite.load(ordering: .relaxed) }

    func publish(peak: (Double, Double), rms: (Double, Double), voices count: Int) {
        outputPeak.0.store(peak.0.bitPattern, ordering: .relaxed)
        outputPeak.1.store(peak.1.bitPattern, ordering: .relaxed)
        outputRMS.0.store(rms.0.bitPattern, ordering: .relaxed)
        outputRMS.1.store(rms.1.bitPattern, ordering: .relaxed)
        voices.store(count, ordering: .relaxed)
    }

    /// Output peak, dBFS, left and right.
    public var outputPeakDecibels: (left: Double, right: Double) {
        (Double(bitPattern: outputPeak.0.load(ordering: .relaxed)), Double(bitPattern: outputPeak.1.load(ordering: .relaxed)))
    }

    /// Output RMS (300 ms), dBFS, left and right.
    public var outputRMSDecibels: (left: Double, right: Double) {
        (Double(bitPattern: outputRMS.0.load(ordering: .relaxed)), Double(bitPattern: outputRMS.1.load(ordering: .relaxed)))
    }

    public var activeVoices: Int { voices.load(ordering: .relaxed) }
}
