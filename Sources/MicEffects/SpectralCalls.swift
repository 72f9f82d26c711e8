import Spectral

// The calls from the mic effects into the Spectral module's render side, the only mic-chain code
// the real-time checks do not cover: opted out here by name, left to the malloc-counting suite
// (Tests/RealTimeSafetyTests). Behind them: the STFT, its frame processors and the YIN detector,
// which run FFTW plans (C) and libm, and `PublishedPitch.store` (Spectral cannot use DSP's
// `RealTimeMath`). See Sources/DSP/README.md, "Checked by the compiler".

// One per STFT type, not generic: a call to a generic function is rejected by the checks.

@_semantics("no_performance_analysis")
func stftProcess(_ stft: STFT<DominantFrequencyFinder>, _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, count: Int) {
    stft.process(input, output, count: count)
}

@_semantics("no_performance_analysis")
func stftProcess(_ stft: STFT<PhaseLockedPitchShift>, _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, count: Int) {
    stft.process(input, output, count: count)
}

@_semantics("no_performance_analysis")
func stftReset(_ stft: STFT<DominantFrequencyFinder>) { stft.reset() }

@_semantics("no_performance_analysis")
func stftReset(_ stft: STFT<PhaseLockedPitchShift>) { stft.reset() }

/// Feeds the detector; its new estimate when one was made.
@_semantics("no_performance_analysis")
func pitchDetectorPush(_ detector: PitchDetector, _ samples: UnsafePointer<Float>, count: Int) -> PitchEstimate? {
    detector.push(samples, count: count) ? detector.latest : nil
}

@_semantics("no_performance_analysis")
func publishPitch(_ readout: PublishedPitch, _ estimate: PitchEstimate) { readout.store(estimate) }
