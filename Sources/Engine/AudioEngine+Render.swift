#if canImport(Glibc)
import Glibc
#endif
import DSP
import Instruments
import MIDI
import MicEffects
import Sampler

extension AudioEngine {
    /// What changes every block without a parameter store: the shutdown fade and the pitch follower.
    @_noAllocation
    func applyLiveInputs() {
        if fadeRequest({ $0.fadeOutRequested.load(ordering: .relaxed) }) { master { $0.gain.setTarget(0) } }
        let follower = follower
        synth { follower.update($0) }
    }

    /// Routes one message, applied at `frame` of the block: a SysEx to the master stage (master
    /// volume) and both instruments, mapped controls (consumed), then the instruments its
    /// channel plays.
    @_noAllocation
    func dispatch(_ message: MIDIMessage, at frame: Int) {
        var m = message.normalized
        if case .system(let sysex) = m {
            switch sysex {
            case .masterVolume(let value): master { $0.volume.schedule(value, atFrame: frame) }
            case .reset: master { $0.volume.schedule(SystemExclusive.fullMasterVolume, atFrame: frame) }
            case .rhythmPart, .generalMIDIOff: break
            }
            synth { $0.handle(m) }
            sampler { $0.handle(m) }
            return
        }
        if let control = controls.apply(m) {
            // Loop starts take effect at this exact frame rather than at the next block.
            if control.loopBus >= 0, let player = loopPlayers[control.loopBus] {
                let playing = table { $0.value(control.parameter) } >= 0.5
                player { $0.setPlaying(playing) }
            }
            return
        }
        let channel = Int(m.channel & 15)
        guard routing.plays(channel: m.channel) else {
            if case .noteOn = m { partMeterCells { $0.countIgnored(channel: channel, reason: .channelNotPlayed) } }
            return
        }
        guard case .noteOn(let c, let note, let velocity) = m else {
            // Everything but note-ons reaches both instruments: each keeps the channel's
            // controllers, and notes started before a program change still get their note-off.
            synth { $0.handle(m) }
            sampler { $0.handle(m) }
            return
        }
        m = .noteOn(channel: c, note: note, velocity: velocityCurve.apply(velocity))
        switch sampler({ $0.partProgram(channel: channel) }) {
        case .sampler?:
            sampler { $0.handle(m) }
            partMeterCells { $0.countPlayed(channel: channel) }
        case .synth?, nil:
            synth { $0.handle(m) }
            partMeterCells { $0.countPlayed(channel: channel) }
        case .none?:
            partMeterCells { $0.countIgnored(channel: channel, reason: .noProgram) }
        }
    }

    /// Publishes each part's voices, program and peak (block end); each part's level falls by
    /// `levelFall` (a gain) unless the block's peak is higher.
    @_noAllocation
    func publishPartMeters(levelFall: Float) {
        let counts = partVoiceCounts
        counts.update(repeating: 0, count: PartMeters.partCount)
        synth { $0.addVoiceCounts(to: counts) }
        sampler { $0.addVoiceCounts(to: counts) }
        for c in 0..<PartMeters.partCount {
            let synthPeak = synth { $0.takeChannelPeak(channel: c) }
            let (samplerPeak, program) = sampler { ($0.takePartPeak(channel: c), $0.partProgram(channel: c)) }
            partMeterCells { $0.publish(channel: c, voices: counts[c], program: program, peak: max(synthPeak, samplerPeak), levelFall: levelFall) }
        }
    }

    /// Renders every MIDI-driven or looping source for frames `[start, start + count)`.
    @_noAllocation
    func renderSources(from start: Int, count: Int, blockFrames: Int) {
        for index in 0..<BusID.count {
            guard let player = loopPlayers[index], !player({ $0.isSilent }) else { continue }
            let block = activate(BusID(rawValue: index)!, blockFrames: blockFrames).slice(from: start, count: count)
            player { $0.render(into: block) }
        }
        if !synth({ $0.isSilent }) {
            let block = activate(.synth, blockFrames: blockFrames).slice(from: start, count: count)
            let sends = sends(of: .synth)
            synth { $0.render(into: block, sends: sends, at: start) }
        }
        if !sampler({ $0.isSilent }) {
            let block = activate(.sampler, blockFrames: blockFrames).slice(from: start, count: count)
            let sends = sends(of: .sampler)
            sampler { $0.render(into: block, sends: sends, at: start) }
        }
    }

    /// Where a bus's parts send: the send bus, or nowhere while the bus is muted (its parts'
    /// reverb and chorus fall silent with it) or `fx.enabled` is off. The sends are taken before
    /// the bus gain and pan.
    @_noAllocation
    private func sends(of bus: BusID) -> SendTarget? {
        let switches = sendSwitches
        let (muted, enabled) = table { ($0.value(switches.busMute[bus.rawValue]) >= 0.5, $0.value(switches.fxEnabled) >= 0.5) }
        if muted || !enabled { return nil }
        return sendEffects { $0.target }
    }

    /// The bus's whole-block buffer, cleared the first time a source touches it in this block.
    @_noAllocation
    func activate(_ bus: BusID, blockFrames: Int) -> StereoBlock {
        let block = buses[bus.rawValue].whole.slice(from: 0, count: blockFrames)
        if !buses[bus.rawValue].isActive {
            block.clear()
            buses[bus.rawValue].isActive = true
        }
        return block
    }

    /// Silences a bus block holding NaN or infinity, resets the source that made it (its voices or
    /// filters would otherwise stay poisoned) and counts it. Render thread.
    @_noAllocation
    private func guardFinite(_ block: StereoBlock, _ bus: BusID) {
        guard NonFiniteGuard.scrub(block) else { return }
        outputMeters { $0.countNonFiniteBlock() }
        switch bus {
        case .synth: synth { $0.reset() }
        case .sampler: sampler { $0.reset() }
        case .mic: mic { $0.reset() }
        case .file:
            fileHighPass.reset()
            loopPlayers[bus.rawValue]?({ $0.reset() })
        case .guitar, .beat: loopPlayers[bus.rawValue]?({ $0.reset() })
        }
    }

    /// The mic chain runs whenever there is input (its meters and pitch readout need it), even
    /// with the bus muted; without input it costs nothing.
    @_noAllocation
    func renderMic(input: StereoBlock?, frames: Int) {
        guard let input else { return }
        let source = StereoBlock(left: input.left, right: input.right, frames: frames)
        // Outside audio (a capture, an --input file) may hold NaN; it would poison the whole chain.
        if NonFiniteGuard.scrub(source) { outputMeters { $0.countNonFiniteBlock() } }
        let block = activate(.mic, blockFrames: frames)
        mic { $0.process(input: source, output: block) }
    }

    @_noAllocation
    func mixAndMaster(into out: StereoBlock) {
        out.clear()
        var anyActive = false
        if buses[BusID.file.rawValue].isActive {
            let fileBlock = activate(.file, blockFrames: out.frames)
            guardFinite(fileBlock, .file)  // before its high-pass, whose state NaN would poison
            fileHighPass.process(fileBlock, scratch: scratchBlock.slice(from: 0, count: out.frames))
        }
        for index in 0..<BusID.count where buses[index].isActive {
            guardFinite(buses[index].whole.slice(from: 0, count: out.frames), BusID(rawValue: index)!)
            buses[index].mix(into: out)
            anyActive = true
        }
        if sendEffects({ $0.process(into: out) }) { anyActive = true }
        let hadInput = anyActive
        master { $0.process(out, hadInput: hadInput) }
        if NonFiniteGuard.scrub(out) {
            master { $0.reset() }
            outputMeters { $0.countNonFiniteBlock() }
        }
        let levels = master { $0.meters }
        let reduction = master { $0.limiterReduction }
        for index in 0..<BusID.count { buses[index].meter(frames: out.frames) }
        let voices = synth { $0.activeVoiceCount } + sampler { $0.activeVoiceCount }
        let idle = isIdle
        let runaway = sampler { $0.runawayVoiceCount }
        outputMeters {
            $0.publish(
                peak: (levels.left.peakDecibels, levels.right.peakDecibels), rms: (levels.left.rmsDecibels, levels.right.rmsDecibels),
                voices: voices)
            $0.publish(idle: idle)
            $0.publish(runawayVoices: runaway)
            $0.publish(limiterReductionDecibels: -Decibels.fromGain(1 - reduction))
        }
        for index in 0..<BusID.count {
            let level = buses[index].postFaderDecibels
            outputMeters { $0.publish(bus: index, peak: level.peak, rms: level.rms) }
        }
        // Part levels fall at 20 dB/s, as the output's peak meter does.
        publishPartMeters(levelFall: RealTimeMath.powf(10, -Float(out.frames) / Float(sampleRate)))
    }
}
