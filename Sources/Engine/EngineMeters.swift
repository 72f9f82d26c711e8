import Synchronization

/// Readouts the render thread publishes for status displays: output peak/RMS per channel in dBFS,
/// sounding voices, and the last program change it saw. Relaxed atomics; readers see recent values.
public final class EngineMeters: Sendable {
    /// dBFS, left (0) and right (1).
    private let outputPeak = AtomicCells(count: 2, repeating: 0)
    private let outputRMS = AtomicCells(count: 2, repeating: 0)
    /// dBFS by `BusID.rawValue`, after each bus's fader.
    private let busPeak = AtomicCells(count: BusID.count, repeating: 0)
    private let busRMS = AtomicCells(count: BusID.count, repeating: 0)
    /// The master limiter's deepest gain reduction in the last block, dB (≥ 0).
    private let limiter = AtomicCells(count: 1, repeating: 0)
    private let voices = Atomic<Int>(0)
    private let nonFinite = Atomic<Int>(0)
    private let runaway = Atomic<Int>(0)
    private let idle = Atomic<Bool>(true)

    init() {
        for bus in 0..<BusID.count {
            busPeak.store(bus, -160.0)
            busRMS.store(bus, -160.0)
        }
    }

    /// Render thread, block end: one bus's level after its fader.
    @_noAllocation
    func publish(bus: Int, peak: Double, rms: Double) {
        busPeak.store(bus, peak)
        busRMS.store(bus, rms)
    }

    /// Render thread, block end.
    @_noAllocation
    func publish(limiterReductionDecibels: Double) { limiter.store(0, limiterReductionDecibels) }

    /// Render thread: the engine went idle (every bus silent, the limiter at rest).
    @_noAllocation
    func publishSilentBusesAndLimiter() {
        limiter.store(0, 0.0)
        for bus in 0..<BusID.count { publish(bus: bus, peak: -160, rms: -160) }
    }

    /// A bus's peak and RMS after its fader, dBFS.
    public func busDecibels(_ bus: BusID) -> (peak: Double, rms: Double) {
        (busPeak.loadDouble(bus.rawValue), busRMS.loadDouble(bus.rawValue))
    }

    /// The master limiter's gain reduction in the last block, dB (0 when it is not limiting).
    public var limiterReductionDecibels: Double { limiter.loadDouble(0) }

    /// Render thread: a block held NaN or infinity and was silenced (its unit reset).
    @_noAllocation
    func countNonFiniteBlock() { nonFinite.wrappingAdd(1, ordering: .relaxed) }

    /// Blocks (of a bus or of the master output) silenced because they held NaN or infinity.
    public var nonFiniteBlocks: Int { nonFinite.load(ordering: .relaxed) }

    /// Sampler voices stopped because their output ran away (see `VoiceGuard`).
    public var runawayVoices: Int { runaway.load(ordering: .relaxed) }

    /// Render thread, block end.
    @_noAllocation
    func publish(runawayVoices count: Int) { runaway.store(count, ordering: .relaxed) }

    @_noAllocation
    func publish(peak: (Double, Double), rms: (Double, Double), voices count: Int) {
        outputPeak.store(0, peak.0)
        outputPeak.store(1, peak.1)
        outputRMS.store(0, rms.0)
        outputRMS.store(1, rms.1)
        voices.store(count, ordering: .relaxed)
    }

    /// Output peak, dBFS, left and right.
    public var outputPeakDecibels: (left: Double, right: Double) {
        (outputPeak.loadDouble(0), outputPeak.loadDouble(1))
    }

    /// Output RMS (300 ms), dBFS, left and right.
    public var outputRMSDecibels: (left: Double, right: Double) {
        (outputRMS.loadDouble(0), outputRMS.loadDouble(1))
    }

    public var activeVoices: Int { voices.load(ordering: .relaxed) }

    /// Render thread, block end: whether every source is silent and the master has rung out.
    @_noAllocation
    func publish(idle isIdle: Bool) { idle.store(isIdle, ordering: .relaxed) }

    /// Nothing sounds (as of the last block): no voice, no loop, no master ring-out. Any thread.
    public var isIdle: Bool { idle.load(ordering: .relaxed) }
}
