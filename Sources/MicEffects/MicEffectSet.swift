import DSP
import Spectral

/// Every effect of the chain, allocated once, and the dispatch from `MicEffectKind` to them
/// (a switch over concrete types: no existentials on the render thread).
final class MicEffectSet {
    static let maximumLatencyFrames = 4096

    let ring: RingModEffect
    let echo: EchoEffect
    let average: AverageEffect
    let lowpass: LowpassEffect
    let spectralPass: SpectralPassEffect
    let pitchShift: PitchShiftEffect
    let pitchDetector: PitchDetector
    private let monoScratch: UnsafeMutablePointer<Float>

    init(sampleRate: Double, maxFrames: Int) {
        ring = RingModEffect(sampleRate: sampleRate)
        echo = EchoEffect(sampleRate: sampleRate)
        average = AverageEffect(sampleRate: sampleRate, maxFrames: maxFrames)
        lowpass = LowpassEffect(sampleRate: sampleRate)
        spectralPass = SpectralPassEffect(sampleRate: sampleRate)
        pitchShift = PitchShiftEffect(sampleRate: sampleRate)
        pitchDetector = PitchDetector(sampleRate: sampleRate, hopFrames: 512)
        monoScratch = .allocate(capacity: maxFrames)
        monoScratch.initialize(repeating: 0, count: maxFrames)
    }

    deinit { monoScratch.deallocate() }

    static func latencyFrames(of kind: MicEffectKind) -> Int {
        switch kind {
        case .off, .ringmod, .delay, .average: 0
        case .lowpass: LowpassEffect.latencyFrames
        case .fft: SpectralPassEffect.latencyFrames
        case .pitchshift: PitchShiftEffect.latencyFrames
        }
    }

    func setPitchShiftSemitones(_ semitones: Double) { pitchShift.setSemitones(semitones) }

    func reset(_ kind: MicEffectKind) {
        switch kind {
        case .off: break
        case .ringmod: ring.reset()
        case .delay: echo.reset()
        case .average: average.reset()
        case .lowpass: lowpass.reset()
        case .fft: spectralPass.reset()
        case .pitchshift: pitchShift.reset()
        }
    }

    func process(_ kind: MicEffectKind, input: StereoBlock, output: StereoBlock, readouts: MicReadouts) {
        switch kind {
        case .off: output.copy(from: input)
        case .ringmod: ring.process(input: input, output: output)
        case .delay: echo.process(input: input, output: output)
        case .average: average.process(input: input, output: output)
        case .lowpass: lowpass.process(input: input, output: output)
        case .fft: spectralPass.process(input: input, output: output, readouts: readouts)
        case .pitchshift: pitchShift.process(input: input, output: output)
        }
    }

    /// Runs the pitch detector on (L + R)/2 and publishes each new estimate.
    func trackPitch(_ input: StereoBlock, readouts: MicReadouts) {
        for i in 0..<input.frames { monoScratch[i] = 0.5 * (input.left[i] + input.right[i]) }
        guard pitchDetector.push(monoScratch, count: input.frames) else { return }
        let estimate = pitchDetector.latest
        readouts.pitch.store(estimate)
        readouts.shiftedPitchHz.store(estimate.voiced ? Float(estimate.frequencyHz) * pitchShift.ratio : 0)
    }
}
