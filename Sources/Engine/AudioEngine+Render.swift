import DSP
import Instruments
import MIDI

extension AudioEngine {
    /// Reads the parameter table (atomics) into the units' smoothers. Block start, render thread.
    func applyParameters(snap: Bool) {
        let p = parameters
        for bus in BusID.allCases {
            let id = ids.buses[bus.rawValue]
            buses[bus.rawValue].set(gainDecibels: p.value(id.gain), muted: p.value(id.mute) >= 0.5, pan: p.value(id.pan))
            if let play = ids.loopPlay[bus], let player = loopPlayers[bus.rawValue] {
                player.setPlaying(p.value(play) >= 0.5)
            }
        }
        master.gain.setTarget(Float(Decibels.gain(p.value(ids.masterGain))))
        func set(_ filter: inout SmoothedFilter, _ f: EngineParameters.Filter) {
            filter.set(cutoffHz: p.value(f.cutoff), resonanceDecibels: p.value(f.resonance), enabled: p.value(f.enabled) >= 0.5)
        }
        set(&master.lowPass, ids.masterLowPass)
        set(&master.highPass, ids.masterHighPass)
        set(&fileHighPass, ids.fileHighPass)
        synth.envelope = EnvelopeSettings(
            attackSeconds: p.value(ids.synthAttack), decaySeconds: p.value(ids.synthDecay),
            sustainLevel: p.value(ids.synthSustain), releaseSeconds: p.value(ids.synthRelease))
        synth.pitchBendRangeSemitones = p.value(ids.synthBend)
        synth.voiceLimit = Int(p.value(ids.synthVoices))
    }

    /// Routes one message: mapped controls first (consumed), then the instruments its channel plays.
    func dispatch(_ message: MIDIMessage) {
        let m = message.normalized
        for control in controls where control.mapping.matches(m) {
            applyControl(control.mapping, parameter: control.parameter, message: m)
            return
        }
        let targets = routing.targets(channel: m.channel)
        if targets.contains(.synth) { synth.handle(m) }
    }

    private func applyControl(_ mapping: ControlMapping, parameter index: Int, message: MIDIMessage) {
        let d = parameters.descriptors[index]
        switch message {
        case .controlChange(_, _, let value):
            if d.kind == .toggle {
                parameters.store(index, value >= 64 ? 1 : 0)
            } else {
                var v = d.range.lowerBound + (d.range.upperBound - d.range.lowerBound) * Double(value) / 127
                if d.kind == .integer || d.kind != .continuous { v = v.rounded() }
                parameters.store(index, v)
            }
        case .noteOn:
            let current = parameters.value(index)
            let mid = (d.range.lowerBound + d.range.upperBound) / 2
            parameters.store(index, current > mid ? d.range.lowerBound : d.range.upperBound)
        default:
            break // note-offs of a mapped note are consumed
        }
        // Loop starts take effect at this exact frame rather than at the next block.
        for bus in BusID.allCases where ids.loopPlay[bus] == index {
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
            synth.render(into: block.slice(from: start, count: count))
        }
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

    func renderMic(input: StereoBlock?, frames: Int) {}

    func mixAndMaster(into out: StereoBlock) {
        out.clear()
        var anyActive = false
        if buses[BusID.file.rawValue].isActive {
            let fileBlock = activate(.file, blockFrames: out.frames)
            fileHighPass.process(fileBlock, scratch: scratch.block(frames: out.frames))
        }
        for i in buses.indices where buses[i].isActive {
            buses[i].mix(into: out)
            anyActive = true
        }
        master.process(out, hadInput: anyActive)
        meters.publish(
            peak: (master.meters.left.peakDecibels, master.meters.right.peakDecibels),
            rms: (master.meters.left.rmsDecibels, master.meters.right.rmsDecibels),
            voices: synth.activeVoiceCount)
    }
}
