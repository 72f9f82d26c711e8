import DSP
import MicEffects

/// Parameter application: reads the parameter table (atomics) into the render units' smoothers
/// and settings at block start — only when something was stored since the last block (one
/// atomic load otherwise). The first block snaps to the values instead of gliding from defaults.
/// Render thread.
struct ParameterApplier: ~Copyable {
    let ids: EngineParameters
    /// `ids.buses` and `ids.loopPlay` (−1: no loop) in owned storage: reading a Swift array on the
    /// render thread retains its buffer.
    private let busIDs: UnsafeMutablePointer<EngineParameters.Bus>
    private let loopPlayIDs: UnsafeMutablePointer<Int>
    /// The engine controller's table (kept alive by the engine).
    private let parameters: RenderRef<ParameterTable>
    /// `parameters.generation` when the table was last applied.
    private var appliedGeneration: UInt64 = 0
    private var isFirstBlock = true

    init(ids: EngineParameters, parameters: ParameterTable) {
        self.ids = ids
        self.parameters = RenderRef(parameters)
        let count = BusID.allCases.count
        busIDs = .allocate(capacity: count)
        busIDs.initialize(from: ids.buses, count: count)
        loopPlayIDs = .allocate(capacity: count)
        loopPlayIDs.initialize(from: ids.loopPlay.map { $0 ?? -1 }, count: count)
    }

    deinit {
        busIDs.deallocate()
        loopPlayIDs.deallocate()
    }

    @_noAllocation
    private func value(_ index: Int) -> Double { parameters { $0.value(index) } }

    @_noAllocation
    private func isOn(_ index: Int) -> Bool { value(index) >= 0.5 }

    @_noAllocation
    mutating func applyIfChanged(to engine: AudioEngine) {
        let generation = parameters { $0.generation }
        guard generation != appliedGeneration || isFirstBlock else { return }
        appliedGeneration = generation
        apply(to: engine, snap: isFirstBlock)
        isFirstBlock = false
    }

    @_noAllocation
    private func apply(to engine: AudioEngine, snap: Bool) {
        for index in 0..<BusID.count {
            let id = busIDs[index]
            engine.buses[index].set(gainDecibels: value(id.gain), muted: isOn(id.mute), pan: value(id.pan), snap: snap)
            let play = loopPlayIDs[index]
            if play >= 0, let player = engine.loopPlayers[index] {
                let playing = isOn(play)
                player { $0.setPlaying(playing) }
            }
        }
        let masterGain = Float(Decibels.gain(value(ids.masterGain)))
        let lowPass = filterSettings(ids.masterLowPass), highPass = filterSettings(ids.masterHighPass)
        let limiter = (enabled: isOn(ids.masterLimiter.enabled), ceiling: value(ids.masterLimiter.ceiling))
        engine.master {
            $0.gain.setTarget(masterGain)
            if snap { $0.gain.snap(to: masterGain) }
            $0.lowPass.set(cutoffHz: lowPass.cutoff, resonanceDecibels: lowPass.resonance, enabled: lowPass.enabled, snap: snap)
            $0.highPass.set(cutoffHz: highPass.cutoff, resonanceDecibels: highPass.resonance, enabled: highPass.enabled, snap: snap)
            $0.setLimiter(enabled: limiter.enabled, ceilingDecibels: limiter.ceiling)
        }
        let file = filterSettings(ids.fileHighPass)
        engine.fileHighPass.set(cutoffHz: file.cutoff, resonanceDecibels: file.resonance, enabled: file.enabled, snap: snap)
        let envelope = EnvelopeSettings(
            attackSeconds: value(ids.synthAttack), decaySeconds: value(ids.synthDecay),
            sustainLevel: value(ids.synthSustain), releaseSeconds: value(ids.synthRelease))
        let bend = value(ids.synthBend), a4 = value(ids.tuningA4), synthVoices = Int(value(ids.synthVoices))
        engine.synth {
            $0.envelope = envelope
            $0.pitchBendRangeSemitones = bend
            $0.a4Hz = a4
            $0.voiceLimit = synthVoices
        }
        let samplerVoices = Int(value(ids.samplerVoices))
        engine.sampler {
            $0.a4Hz = a4
            $0.polyphonyLimit = samplerVoices > 0 ? samplerVoices : nil
        }
        engine.velocityCurve = .gamma(value(ids.velocityCurve))
        let fx = ids.fx
        let parameters = parameters
        engine.sendEffects { $0.apply(parameters, fx, snap: snap) }
        let m = ids.mic
        let mic = MicSettings(
            effect: MicEffectKind(rawValue: Int(value(m.effect))) ?? .off, mix: value(m.mix), ringFrequencyHz: value(m.ringFrequency),
            delaySeconds: value(m.delayTime), delayFeedback: value(m.delayFeedback), delayMix: value(m.delayMix),
            averagePoints: Int(value(m.averagePoints)), lowpassCutoffHz: value(m.lowpassCutoff), pitchShiftSemitones: value(m.pitchShift),
            pitchTracking: isOn(ids.followEnabled))
        engine.mic { mic.apply(to: $0) }
    }

    @_noAllocation
    private func filterSettings(_ f: EngineParameters.Filter) -> (cutoff: Double, resonance: Double, enabled: Bool) {
        (value(f.cutoff), value(f.resonance), isOn(f.enabled))
    }
}

/// The `mic.*` parameters as the mic chain takes them.
struct MicSettings {
    var effect: MicEffectKind
    var mix, ringFrequencyHz, delaySeconds, delayFeedback, delayMix: Double
    var averagePoints: Int
    var lowpassCutoffHz, pitchShiftSemitones: Double
    var pitchTracking: Bool

    @_noAllocation
    func apply(to mic: MicChain) {
        mic.setEffect(effect)
        mic.setMix(mix)
        mic.setRingFrequencyHz(ringFrequencyHz)
        mic.setDelaySeconds(delaySeconds)
        mic.setDelayFeedback(delayFeedback)
        mic.setDelayMix(delayMix)
        mic.setAveragePoints(averagePoints)
        mic.setLowpassCutoffHz(lowpassCutoffHz)
        mic.setPitchShiftSemitones(pitchShiftSemitones)
        mic.pitchTrackingEnabled = pitchTracking
    }
}
