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

    init(sampleRate: Double, maxFrames: Int) {
        ring = RingModEffect(sampleRate: sampleRate)
        echo = EchoEffect(sampleRate: sampleRate)
        average = AverageEffect(sampleRate: sampleRate)
        lowpass = LowpassEffect(sampleRate: sampleRate)
    }

    static func latencyFrames(of kind: MicEffectKind) -> Int {
        switch kind {
        case .off, .ringmod, .delay, .average: 0
        case .lowpass: LowpassEffect.latencyFrames
        case .fft, .pitchshift: 0
        }
    }

    func setPitchShiftSemitones(_ semitones: Double) {}

    func reset(_ kind: MicEffectKind) {
        switch kind {
        case .off: break
        case .ringmod: ring.reset()
        case .delay: echo.reset()
        case .average: average.reset()
        case .lowpass: lowpass.reset()
        case .fft, .pitchshift: break
        }
    }

    func process(_ kind: MicEffectKind, input: StereoBlock, output: StereoBlock, readouts: MicReadouts) {
        switch kind {
        case .off: output.copy(from: input)
        case .ringmod: ring.process(input: input, output: output)
        case .delay: echo.process(input: input, output: output)
        case .average: average.process(input: input, output: output)
        case .lowpass: lowpass.process(input: input, output: output)
        case .fft, .pitchshift: output.copy(from: input)
        }
    }

    func trackPitch(_ input: StereoBlock, readouts: MicReadouts) {}
}
