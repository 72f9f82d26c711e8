import DSP
import Instruments
import MicEffects
import Spectral

/// Pitch-follower glue: with `synth.follow` on, the synth's follower voice sings the mic's
/// detected pitch (transposed by `synth.follow.interval`) at the input's level, and falls silent
/// (with a fade) when the input is unvoiced. Block start, render thread.
struct PitchFollowerLink {
    private let enabled: Int
    private let interval: Int
    /// The controller's table and the mic chain's readouts (the engine keeps both alive).
    private let parameters: RenderRef<ParameterTable>
    private let pitch: RenderRef<PublishedPitch>
    private let rms: (left: RenderRef<PublishedFloat>, right: RenderRef<PublishedFloat>)

    init(ids: EngineParameters, parameters: ParameterTable, readouts: MicReadouts) {
        enabled = ids.followEnabled
        interval = ids.followInterval
        self.parameters = RenderRef(parameters)
        pitch = RenderRef(readouts.pitch)
        rms = (RenderRef(readouts.inputRMSDecibels.left), RenderRef(readouts.inputRMSDecibels.right))
    }

    @_noAllocation
    func update(_ synth: SineSynth) {
        let enabled = enabled, interval = interval
        let (on, semitones) = parameters { ($0.value(enabled) >= 0.5, $0.value(interval)) }
        guard on else {
            synth.follow(frequencyHz: 0, level: 0)
            return
        }
        let estimate = pitch { $0.value }
        let loudest = max(rms.left { $0.value }, rms.right { $0.value })
        let level = Decibels.gain(Double(loudest))
        let hz = estimate.frequencyHz * RealTimeMath.pow(2, semitones / 12)
        synth.follow(frequencyHz: hz, level: estimate.voiced ? Float(min(1, 2 * level)) : 0)
    }
}
