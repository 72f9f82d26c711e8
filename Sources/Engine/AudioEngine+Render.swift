#if canImport(Glibc)
import Glibc
#endif
import DSP
import Instruments
import MIDI
import MicEffects

extension AudioEngine {
    /// What changes every block without a parameter store: the shutdown fade and the pitch follower.
    func applyLiveInputs() {
        if controller.fadeOutRequested.load(ordering: .relaxed) { master.gain.setTarget(0) }
        follower.update(synth)
    }

    /// Routes one message: mapped controls first (consumed), then the instruments its channel plays.
    func dispatch(_ message: MIDIMessage) {
        var m = message.normalized
        if let control = controls.apply(m) {
            // Loop starts take effect at this exact frame rather than at the next block.
            if control.loopBus >= 0, let player = loopPlayers[control.loopBus] {
                player.setPlaying(controller.parameters.value(control.parameter) >= 0.5)
            }
            return
        }
        let channel = Int(m.channel & 15)
        guard routing.plays(channel: m.channel) else {
            if case .noteOn = m { controller.partMeters.countIgnored(channel: channel, reason: .channelNotPlayed) }
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
            controller.partMeters.countPlayed(channel: channel)
        case .synth?, nil:
            synth.handle(m)
            controller.partMeters.countPlayed(channel: channel)
        case .none?:
            controller.partMeters.countIgnored(channel: channel, reason: .noProgram)
        }
    }

    /// Publishes each part's voices, program and peak (block end).
    func publishPartMeters() {
        partVoiceCounts.update(repeating: 0, count: PartMeters.partCount)
        synth.addVoiceCounts(to: partVoiceCounts)
        sampler.addVoiceCounts(to: partVoiceCounts)
        for c in 0..<PartMeters.partCount {
            let peak = max(synth.takeChannelPeak(channel: c), sampler.takePartPeak(channel: c))
            controller.partMeters.publish(channel: c, voices: partVoiceCounts[c], program: sampler.currentProgram(channel: c), peak: peak)
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
    private func sends(of bus: BusID) -> SendTarget? {
        let ids = applier.ids, parameters = controller.parameters
        let off = parameters.value(ids.buses[bus.rawValue].mute) >= 0.5 || parameters.value(ids.fx.enabled) < 0.5
        return off ? nil : sendEffects.bus.target
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
        controller.meters.countNonFiniteBlock()
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
            controller.meters.countNonFiniteBlock()
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
            controller.meters.countNonFiniteBlock()
        }
        controller.meters.publish(
            peak: (master.meters.left.peakDecibels, master.meters.right.peakDecibels),
            rms: (master.meters.left.rmsDecibels, master.meters.right.rmsDecibels),
            voices: synth.activeVoiceCount + sampler.activeVoiceCount)
        controller.meters.publish(idle: isIdle)
        publishPartMeters()
    }
}
