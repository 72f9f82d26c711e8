import DSP

/// Stereo ring modulator (one carrier for both channels). Render-thread safe after init.
final class RingModEffect {
    private var modulator: RingModulator

    init(sampleRate: Double) {
        modulator = RingModulator(sampleRate: sampleRate, carrierHz: 440)
    }

    @_noAllocation
    func setCarrierHz(_ hz: Double) { modulator.setCarrierHz(hz) }

    @_noAllocation
    func reset() { modulator.reset() }

    /// Writes the modulated `input` to `output` (distinct buffers).
    @_noAllocation
    func process(input: StereoBlock, output: StereoBlock) {
        output.copy(from: input)
        modulator.process(output)
    }
}
