#if canImport(Glibc)
import Glibc
#endif
import DSP
import Instruments
import MIDI
import MicEffects

extension AudioEngine {
    /// Reads the parameter table (atomics) into the units' smoothers — only when something was
    /// stored since the last block (one atomic load otherwise). Block start, render thread.
    func applyParametersIfChanged() {
        let generation = parameters.generation
        if generation != appliedGeneration || isFirstBlock {
            appliedGeneration = generation
            applyParameters(snap: isFirstBlock)
        }
        isFirstBlock = false
        applyLiveInputs()
    }

    private func applyParameters(snap: Bool) {
        let p = parameters
        for bus in BusID.allCases {
            let id = ids.buses[bus.rawValue]
            buses[bus.rawValue].set(gainDecibels: p.value(id.gain), muted: p.value(id.mute) >= 0.5, pan: p.value(id.pan), snap: snap)
            if let play = ids.loopPlay[bus.rawValue], let player = loopPlayers[bus.rawValue] {
                player.setPlaying(p.value(play) >= 0.5)
            }
        }
        master.gain.setTarget(Float(Decibels.gain(p.value(ids.masterGain))))
        if snap { master.gain.snap(to: master.gain.target) }
        func set(_ filter: inout SmoothedFilter, _ f: EngineParameters.Filter) {
            filter.set(cutoffHz: p.value(f.cutoff), resonanceDecibels: p.value(f.resonance), enabled: p.value(f.enabled) >= 0.5, snap: snap)
        }
        set(&master.lowPass, ids.masterLowPass)
        set(&master.highPass, ids.masterHighPass)
        master.limiter.isEnabled = p.value(ids.masterLimiter.enabled) >= 0.5
        master.limiter.setCeiling(decibels: p.value(ids.masterLimiter.ceiling))
        set(&fileHighPass, ids.fileHighPass)
        synth.envelope = EnvelopeSettings(
            attackSeconds: p.value(ids.synthAttack), decaySeconds: p.value(ids.synthDecay),
            sustainLevel: p.value(ids.synthSustain), releaseSeconds: p.value(ids.synthRelease))
        synth.pitchBendRangeSemitones = p.value(ids.synthBend)
        synth.a4Hz = p.value(ids.tuningA4)
        sampler.a4Hz = p.value(ids.tuningA4)
        velocityCurve = .gamma(p.value(ids.velocityCurve))
        sendEffects.apply(p, ids.fx, snap: snap)
        synth.voiceLimit = Int(p.value(ids.synthVoices))
        let samplerVoices = Int(p.value(ids.samplerVoices))
        sampler.polyphonyLimit = samplerVoices > 0 ? samplerVoices : nil
        applyMicParameters()
    }

    private func applyMicParameters() {
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

    /// What changes every block without a parameter store: the shutdown fade and the pitch follower.
    private func applyLiveInputs() {
        if fadeOutRequested.load(ordering: .relaxed) { master.gain.setTarget(0) }
        guard parameters.value(ids.followEnabled) >= 0.5 else {
            synth.follow(frequencyHz: 0, level: 0)
            return
        }
        // The follower sings the detected pitch (transposed) at the input's level, and falls silent
        // (with a fade) when the input is unvoiced.
        let pitch = mic.readouts.pitch.value
        let level = Decibels.gain(Double(max(mic.readouts.inputRMSDecibels.left.value, mic.readouts.inputRMSDecibels.right.value)))
        let hz = pitch.frequencyHz * pow(2, parameters.value(ids.followInterval) / 12)
        synth.follow(frequencyHz: hz, level: pitch.voiced ? Float(min(1, 2 * level)) : 0)
    }

    /// Routes one message: mapped controls first (consumed), then the instruments its channel plays.
    func dispatch(_ message: MIDIMessage) {
        var m = message.normalized
        for control in controls where control.matches(m) {
            applyControl(control, message: m)
            return
        }
        let channel = Int(m.channel & 15)
        guard routing.plays(channel: m.channel) else {
            if case .noteOn = m { partMeters.countIgnored(channel: channel, reason: .channelNotPlayed) }
            return
        }
        guard case .noteOn(let c, let note, let velocity) = m else {
            // Everything but note-ons reaches both instruments: each keeps the channel's
            // controllers, and notes started before a program change still get their note-off.
            synth.handle(m)
            sampler.handle(m)
            return
        }
        m = .noteOn(channel: c, note: note, velocity: velocityCurve.apply(velocity))
        switch sampler.partProgram(channel: channel) {
        case .sampler?:
            sampler.handle(m)
            partMeters.countPlayed(channel: channel)
        case .synth?, nil:
            synth.handle(m)
            partMeters.countPlayed(channel: channel)
        case .none?:
            partMeters.countIgnored(channel: channel, reason: .noProgram)
        }
    }

    /// Publishes each part's voices, program and peak (block end).
    func publishPartMeters() {
        partVoiceCounts.update(repeating: 0, count: PartMeters.partCount)
        synth.addVoiceCounts(to: partVoiceCounts)
        sampler.addVoiceCounts(to: partVoiceCounts)
        for c in 0..<PartMeters.partCount {
            let peak = max(synth.takeChannelPeak(channel: c), sampler.takePartPeak(channel: c))
            partMeters.publish(channel: c, voices: partVoiceCounts[c], program: sampler.currentProgram(channel: c), peak: peak)
        }
    }

    private func applyControl(_ control: RenderControl, message: MIDIMessage) {
        let index = control.parameter
        switch message {
        case .controlChange(_, _, let value):
            if control.stepping == .toggle {
                parameters.store(index, value >= 64 ? 1 : 0)
            } else {
                var v = control.lower + (control.upper - control.lower) * Double(value) / 127
                if control.stepping == .whole { v = v.rounded() }
                parameters.store(index, v)
            }
        case .noteOn:
            let current = parameters.value(index)
            let mid = (control.lower + control.upper) / 2
            parameters.store(index, current > mid ? control.lower : control.upper)
        default:
            break  // note-offs of a mapped note are consumed
        }
        // Loop starts take effect at this exact frame rather than at the next block.
        for bus in BusID.allCases where ids.loopPlay[bus.rawValue] == index {
            loopPlayers[bus.rawValue]?.setPlaying(parameters.value(index) >= 0.5)
        }
    }

    /// Renders every MIDI-driven or looping source for frames `[start, start + count)`.
    func renderSources(from start: Int, count: Int, blockFrames: Int) {
        for bus in BusID.allCases {
            guard let player = loopPlayers[bus.rawValue], !player.isSilent else { continue }
            let block = activate(bus, blockFrames: blockFrames)
            player.render(into: block.slice(from: start, count: count))
        }
        if !synth.isSilent {
            let block = activate(.synth, blockFrames: blockFrames)
            synth.render(into: block.slice(from: start, count: count), sends: sends(of: .synth), at: start)
        }
        if !sampler.isSilent {
            let block = activate(.sampler, blockFrames: blockFrames)
            sampler.render(into: block.slice(from: start, count: count), sends: sends(of: .sampler), at: start)
        }
    }

    /// Where a bus's parts send: the send bus, or nowhere while the bus is muted (its parts'
    /// reverb and chorus fall silent with it) or `fx.enabled` is off. The sends are taken before
    /// the bus gain and pan.
    private func sends(of bus: BusID) -> SendBus? {
        let off = parameters.value(ids.buses[bus.rawValue].mute) >= 0.5 || parameters.value(ids.fx.enabled) < 0.5
        return off ? nil : sendEffects.bus
    }

    /// The bus's whole-block buffer, cleared the first time a source touches it in this block.
    func activate(_ bus: BusID, blockFrames: Int) -> StereoBlock {
        let block = buses[bus.rawValue].buffer.block(frames: blockFrames)
        if !buses[bus.rawValue].isActive {
            block.clear()
            buses[bus.rawValue].isActive = true
        }
        return block
    }

    /// Silences a bus block holding NaN or infinity, resets the source that made it (its voices or
    /// filters would otherwise stay poisoned) and counts it. Render thread.
    private func guardFinite(_ block: StereoBlock, _ bus: BusID) {
        guard NonFiniteGuard.scrub(block) else { return }
        meters.countNonFiniteBlock()
        switch bus {
        case .synth: synth.reset()
        case .sampler: sampler.reset()
        case .mic: mic.reset()
        case .file:
            fileHighPass.reset()
            loopPlayers[bus.rawValue]?.reset()
        case .guitar, .beat: loopPlayers[bus.rawValue]?.reset()
        }
    }

    /// The mic chain runs whenever there is input (its meters and pitch readout need it), even
    /// with the bus muted; without input it costs nothing.
    func renderMic(input: StereoBlock?, frames: Int) {
        guard let input else { return }
        // Outside audio (a capture, an --input file) may hold NaN; it would poison the whole chain.
        if NonFiniteGuard.scrub(StereoBlock(left: input.left, right: input.right, frames: frames)) {
            meters.countNonFiniteBlock()
        }
        let block = activate(.mic, blockFrames: frames)
        mic.process(input: StereoBlock(left: input.left, right: input.right, frames: frames), output: block)
    }

    func mixAndMaster(into out: StereoBlock) {
        out.clear()
        var anyActive = false
        if buses[BusID.file.rawValue].isActive {
            let fileBlock = activate(.file, blockFrames: out.frames)
            guardFinite(fileBlock, .file)  // before its high-pass, whose state NaN would poison
            fileHighPass.process(fileBlock, scratch: scratch.block(frames: out.frames))
        }
        for i in buses.indices where buses[i].isActive {
            guardFinite(buses[i].buffer.block(frames: out.frames), BusID(rawValue: i)!)
            buses[i].mix(into: out)
            anyActive = true
        }
        if sendEffects.process(into: out) { anyActive = true }
        master.process(out, hadInput: anyActive)
        if NonFiniteGuard.scrub(out) {
            master.reset()
            meters.countNonFiniteBlock()
        }
        meters.publish(
            peak: (master.meters.left.peakDecibels, master.meters.right.peakDecibels),
            rms: (master.meters.left.rmsDecibels, master.meters.right.rmsDecibels),
            voices: synth.activeVoiceCount + sampler.activeVoiceCount)
        meters.publish(idle: isIdle)
        meters.publish(runawayVoices: sampler.runawayVoiceCount)
        publishPartMeters()
    }
}
