import DSP
import MicEffects

/// Parameter application: reads the parameter table (atomics) into the render units' smoothers
/// and settings at block start — only when something was stored since the last block (one
/// atomic load otherwise). The first block snaps to the values instead of gliding from defaults.
/// Render thread.
struct ParameterApplier {
    let ids: EngineParameters
    /// The engine controller's table; the controller (held by the engine) keeps it alive.
    private unowned(unsafe) let parameters: ParameterTable
    /// `parameters.generation` when the table was last applied.
    private var appliedGeneration: UInt64 = 0
    private var isFirstBlock = true

    init(ids: EngineParameters, parameters: ParameterTable) {
        self.ids = ids
        self.parameters = parameters
    }

    mutating func applyIfChanged(to engine: AudioEngine) {
        let generation = parameters.generation
        guard generation != appliedGeneration || isFirstBlock else { return }
        appliedGeneration = generation
        apply(to: engine, snap: isFirstBlock)
        isFirstBlock = false
    }

    private func apply(to engine: AudioEngine, snap: Bool) {
        let p = parameters
        for bus in BusID.allCases {
            let id = ids.buses[bus.rawValue]
            engine.buses[bus.rawValue].set(gainDecibels: p.value(id.gain), muted: p.value(id.mute) >= 0.5, pan: p.value(id.pan), snap: snap)
            if let play = ids.loopPlay[bus.rawValue], let player = engine.loopPlayers[bus.rawValue] {
                player.setPlaying(p.value(play) >= 0.5)
            }
        }
        let master = engine.master
        master.gain.setTarget(Float(Decibels.gain(p.value(ids.masterGain))))
        if snap { master.gain.snap(to: master.gain.target) }
        func set(_ filter: inout SmoothedFilter, _ f: EngineParameters.Filter) {
            filter.set(cutoffHz: p.value(f.cutoff), resonanceDecibels: p.value(f.resonance), enabled: p.value(f.enabled) >= 0.5, snap: snap)
        }
        set(&master.lowPass, ids.masterLowPass)
        set(&master.highPass, ids.masterHighPass)
        master.limiter.isEnabled = p.value(ids.masterLimiter.enabled) >= 0.5
        master.limiter.setCeiling(decibels: p.value(ids.masterLimiter.ceiling))
        set(&engine.fileHighPass, ids.fileHighPass)
        let synth = engine.synth
        synth.envelope = EnvelopeSettings(
            attackSeconds: p.value(ids.synthAttack), decaySeconds: p.value(ids.synthDecay),
            sustainLevel: p.value(ids.synthSustain), releaseSeconds: p.value(ids.synthRelease))
        synth.pitchBendRangeSemitones = p.value(ids.synthBend)
        synth.a4Hz = p.value(ids.tuningA4)
        synth.voiceLimit = Int(p.value(ids.synthVoices))
        engine.sampler.a4Hz = p.value(ids.tuningA4)
        let samplerVoices = Int(p.value(ids.samplerVoices))
        engine.sampler.polyphonyLimit = samplerVoices > 0 ? samplerVoices : nil
        engine.velocityCurve = .gamma(p.value(ids.velocityCurve))
        engine.sendEffects.apply(p, ids.fx, snap: snap)
        applyMic(to: engine.mic)
    }

    private func applyMic(to mic: MicChain) {
        let p = parameters, m = ids.mic
        mic.setEffect(MicEffectKind(rawValue: Int(p.value(m.effect))) ?? .off)
        mic.setMix(p.value(m.mix))
        mic.setRingFrequencyHz(p.value(m.ringFrequency))
        mic.setDelaySeconds(p.value(m.delayTime))
        mic.setDelayFeedback(p.value(m.delayFeedback))
        mic.setDelayMix(p.value(m.delayMix))
        mic.setAveragePoints(Int(p.value(m.averagePoints)))
        mic.setLowpassCutoffHz(p.value(m.lowpassCutoff))
        mic.setPitchShiftSemitones(p.value(m.pitchShift))
        mic.pitchTrackingEnabled = p.value(ids.followEnabled) >= 0.5
    }
}
