import DSP
import Instruments
import MicEffects

/// Pitch-follower glue: with `synth.follow` on, the synth's follower voice sings the mic's
/// detected pitch (transposed by `synth.follow.interval`) at the input's level, and falls silent
/// (with a fade) when the input is unvoiced. Block start, render thread.
struct PitchFollowerLink {
    private let enabled: Int
    private let interval: Int
    /// The controller's table and the mic chain's readouts; the engine keeps both alive.
    private unowned(unsafe) let parameters: ParameterTable
    private unowned(unsafe) let readouts: MicReadouts

    init(ids: EngineParameters, parameters: ParameterTable, readouts: MicReadouts) {
        enabled = ids.followEnabled
        interval = ids.followInterval
        self.parameters = parameters
        self.readouts = readouts
    }

    func update(_ synth: SineSynth) {
        guard parameters.value(enabled) >= 0.5 else {
            synth.follow(frequencyHz: 0, level: 0)
            return
        }
        let pitch = readouts.pitch.value
        let rms = max(readouts.inputRMSDecibels.left.value, readouts.inputRMSDecibels.right.value)
        let level = Decibels.gain(Double(rms))
        let hz = pitch.frequencyHz * RealTimeMath.pow(2, parameters.value(interval) / 12)
        synth.follow(frequencyHz: hz, level: pitch.voiced ? Float(min(1, 2 * level)) : 0)
    }
}
