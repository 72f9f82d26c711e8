import DSP
import MIDI

extension SamplerInstrument {
    /// Render thread: applies one MIDI message at the current position (the engine splits blocks
    /// at event frames) to the part of its channel: notes, program change, bank select CC0/CC32,
    /// CC1 vibrato, CC7 volume, CC10 pan, CC11 expression, CC64 sustain, CC66 sostenuto, CC67
    /// soft pedal, CC91/CC93 sends, RPN 0 bend range, RPN 1/2 tuning, CC120/121/123, the mode
    /// messages CC124–127 (release, like CC123), pitch bend, and the SysEx resets and GS rhythm
    /// part (`SystemExclusive`). Others are ignored.
    @_noAllocation
    public func handle(_ message: MIDIMessage) {
        adoptPendingBank()
        let channel = Int(message.channel & 15)
        switch message.normalized {
        case .system(let sysex):
            systemExclusive(sysex)
        case .noteOn(_, let note, let velocity):
            noteOn(channel: channel, key: Int(note), velocity: Int(velocity))
        case .noteOff(_, let note, _):
            noteOff(channel: channel, key: Int(note))
        case .controlChange(_, let controller, let value):
            controlChange(channel: channel, controller, value: value)
        case .pitchBend(_, let value):
            parts[channel].controllers.setBend(value)
            parts[channel].modulationEpoch &+= 1
        case .programChange(_, let program):
            programChange(channel: channel, program: Int(program))
        case .polyPressure(_, let note, let value):
            soundFontMemory.polyPressure(channel: channel)[Int(note & 127)] = value
            parts[channel].modulationEpoch &+= 1
        case .channelPressure(_, let value):
            parts[channel].channelPressure = value
            parts[channel].modulationEpoch &+= 1
        }
    }

    /// Resets (every part back to how the bank starts it, notes faded out as all-sound-off does)
    /// and the GS rhythm part (the part becomes a drum part or a melodic one and takes program 0,
    /// as an SC-88 and FluidSynth do). Master volume is the engine's; GM System Off changes nothing.
    private func systemExclusive(_ sysex: SystemExclusive) {
        switch sysex {
        case .reset:
            let voices = voices  // a local: `&&` would capture `self` (a retain)
            pendingNotes.cancel(channel: nil)
            for slot in 0..<voiceSlots where voices[slot].isActive && !voices[slot].isStolen {
                voices[slot].steal(fadeSeconds: SamplerConstants.allSoundOffFadeSeconds)
            }
            for c in 0..<SamplerConstants.partCount {
                parts[c].resetControllers()
                restoreStart(channel: c)
            }
        case .rhythmPart(let channel, let map):
            parts[Int(channel & 15)].isDrum = map != 0
            programChange(channel: Int(channel & 15), program: 0)
        case .masterVolume, .generalMIDIOff:
            break
        }
    }

    /// Picks the part's new program from the bank by index: nothing allocated, no file read.
    /// Sounding notes keep their program (their voices point into the bank, which outlives them).
    private func programChange(channel: Int, program: Int) {
        guard let bank else { return }
        let part = parts[channel]
        let bankNumber = Int(part.controllers.bankMSB)
        guard let selected = bank.lookup(bank: bankNumber, program: program, isDrum: part.isDrum) else { return }
        parts[channel].programNumber = program
        parts[channel].select(selected, bank: bank, stamp: frameClock &+ 1)
    }

    private func controlChange(channel: Int, _ controller: UInt8, value: UInt8) {
        let voices = voices, parts = parts  // locals: `&&` would capture `self` (a retain)
        parts[channel].controllerValues[Int(controller & 0x7F)] = value
        parts[channel].modulationEpoch &+= 1
        // Nothing sounds on the part: a value holds from this frame, not after a ramp from the old one.
        let silent = !hasVoices(on: channel)
        switch parts[channel].controllers.apply(controller: controller, value: value) {
        case .volume: parts[channel].gains.setVolume(Int(value))
        case .expression: parts[channel].gains.setExpression(Int(value))
        case .pan: parts[channel].gains.setPan(Int(value))
        case .sustainReleased: releasePedalledVoices(channel: channel)
        case .sostenutoPressed:
            for slot in 0..<voiceSlots where isSounding(slot, on: channel) && voices[slot].isKeyDown {
                voices[slot].isHeldBySostenuto = true
            }
        case .sostenutoReleased: releasePedalledVoices(channel: channel)
        case .allSoundOff:
            pendingNotes.cancel(channel: channel)
            for slot in 0..<voiceSlots where voices[slot].isActive && voices[slot].channel == channel {
                voices[slot].steal(fadeSeconds: SamplerConstants.allSoundOffFadeSeconds)
            }
        case .resetAllControllers:
            parts[channel].gains.setExpression(127)
            parts[channel].controllerValues[Int(MIDIController.expression)] = 127
            parts[channel].controllerValues[Int(MIDIController.modulationWheel)] = 0
            releasePedalledVoices(channel: channel)
        case .allNotesOff:
            pendingNotes.release(channel: channel, key: nil)
            for slot in 0..<voiceSlots where isSounding(slot, on: channel) && voices[slot].isKeyDown {
                release(slot)
            }
        case .none, .bankSelect:
            break
        }
        let c = parts[channel].controllers
        PartLevels.settle(
            gains: &parts[channel].gains, sends: &parts[channel].sends, silent: silent, sendChanged: MIDIController.isSend(controller),
            reverbController: c.reverbSend, chorusController: c.chorusSend)
    }

    /// Whether any voice (also one fading out) sounds on `channel`.
    private func hasVoices(on channel: Int) -> Bool {
        let voices = voices  // a local: `&&` would capture `self` (a retain)
        for slot in 0..<voiceSlots where voices[slot].isActive && voices[slot].channel == channel { return true }
        return false
    }

    private func isSounding(_ slot: Int, on channel: Int) -> Bool {
        let voices = voices  // locals: `&&` would capture `self` (a retain)
        return voices[slot].isActive && !voices[slot].isStolen && voices[slot].channel == channel
    }

    /// Starts one voice for every enabled zone of every layer that answers `key` and `velocity`
    /// in the part's program. A zone whose region is unprepared (a deferred waveform's not read
    /// yet) waits for it in `pendingNotes`, or, when that is full, stays silent: the note is then
    /// counted silent in the program (`ProgramCell`), once.
    private func noteOn(channel: Int, key: Int, velocity: Int) {
        let voices = voices, parts = parts  // locals: `&&` would capture `self` (a retain)
        guard let program = parts[channel].tables else { return }
        // Re-strike: the same key's old voices fade quickly instead of stacking up; SoundFont
        // voices enter their release, pedals or not (FluidSynth's same-note rule).
        for slot in 0..<voiceSlots where isSounding(slot, on: channel) && voices[slot].key == key {
            if voices[slot].isSoundFont {
                releaseRestruck(slot)
            } else {
                voices[slot].steal(fadeSeconds: SamplerConstants.stealFadeSeconds)
            }
        }
        pendingNotes.release(channel: channel, key: key)  // an earlier strike still waiting: it only plays its release
        noteOnCounter &+= 1
        var silent = false
        for zoneIndex in 0..<program.zones.count {
            // Matched in place: a zone and its layer are copied only when they start a voice.
            let layerIndex = program.zones[zoneIndex].layer
            guard key >= program.layers[layerIndex].minKey, key <= program.layers[layerIndex].maxKey else { continue }
            let shiftedKey = key + program.layers[layerIndex].keyOffset
            guard shiftedKey >= program.zones[zoneIndex].minKey, shiftedKey <= program.zones[zoneIndex].maxKey,
                  velocity >= program.zones[zoneIndex].minVelocity, velocity <= program.zones[zoneIndex].maxVelocity else { continue }
            guard startZone(zoneIndex, of: program, channel: channel, key: key, velocity: velocity) == nil else { continue }
            let waiting = PendingNotes.Entry(
                channel: channel, key: key, velocity: velocity, zone: zoneIndex, program: program.cell,
                deadline: frameClock &+ waitFrames, released: false, noteID: noteOnCounter)
            var added = false
            if waitFrames > 0 { added = pendingNotes.add(waiting) }  // not `||`: it would capture `self` (a retain)
            if !added { silent = true }
        }
        if silent {
            program.cell.pointee.silentNotes.add(1, ordering: .relaxed)
            pendingNotes.markCounted(noteID: noteOnCounter)
        }
    }

    /// Starts a voice of zone `zoneIndex` of `program` (its key and velocity matched): the
    /// band-limited form if published (held until the voice stops reading it), else the plain one.
    /// Returns its slot; nil, starting nothing, when the zone's region is unprepared.
    private func startZone(_ zoneIndex: Int, of program: ProgramTables, channel: Int, key: Int, velocity: Int) -> Int? {
        let stamp = frameClock &+ 1
        let zone = program.zones[zoneIndex]
        guard let form = program.regions[zone.region].strike(stamp: stamp) else { return nil }
        let own = program.regions[zone.region]
        let slot = start(
            channel: channel, zone: zone, form: form, plain: own.isDeferred ? nil : own,
            formAfterRelease: zone.releaseRegion >= 0 ? program.regions[zone.releaseRegion].strike(stamp: stamp) : nil,
            layer: program.layers[zone.layer], key: key, velocity: velocity, partLimit: program.voiceCount)
        if zone.soundFont >= 0 { startSoundFont(slot: slot, tables: program.soundFontZones[zone.soundFont], velocity: velocity) }
        return slot
    }

    /// Render thread, before a block: starts the waiting zones whose samples are read now (the
    /// note released at once if its note-off came meanwhile), and gives up those whose part plays
    /// another program or that waited too long (counted silent).
    @_noAllocation
    func startPendingNotes() {
        var i = 0
        while i < pendingNotes.count {
            let waiting = pendingNotes[i]
            guard let program = parts[waiting.channel].tables, program.cell == waiting.program else {
                pendingNotes.drop(at: i)
                continue
            }
            if let slot = startZone(waiting.zone, of: program, channel: waiting.channel, key: waiting.key, velocity: waiting.velocity) {
                if waiting.released { release(slot) }
                pendingNotes.remove(at: i)
            } else if frameClock >= waiting.deadline {
                pendingNotes.drop(at: i)
            } else {
                i += 1
            }
        }
    }

    private func noteOff(channel: Int, key: Int) {
        let voices = voices  // locals: `&&` would capture `self` (a retain)
        pendingNotes.release(channel: channel, key: key)
        for slot in 0..<voiceSlots where isSounding(slot, on: channel) && voices[slot].isKeyDown && voices[slot].key == key {
            release(slot)
        }
    }

    /// Key released: enter the envelope release unless the voice is one-shot or a pedal holds it.
    private func release(_ slot: Int) {
        voices[slot].isKeyDown = false
        guard !voices[slot].isOneShot, !voices[slot].isStolen else { return }
        if parts[voices[slot].channel].controllers.sustainDown {
            voices[slot].isHeldBySustain = true
        } else if !voices[slot].isHeldBySostenuto {
            voices[slot].enterRelease(minimumFrames: minimumNoteFrames)
        }
    }

    /// A pedal went up: voices whose key is up and that no pedal still holds enter their release.
    /// The sostenuto latch ends on every voice of the part, also on one whose key is still down:
    /// kept, it would make that key's later note-off hold the note for good.
    private func releasePedalledVoices(channel: Int) {
        let voices = voices, parts = parts  // locals: `&&` would capture `self` (a retain)
        let controllers = parts[channel].controllers
        for slot in 0..<voiceSlots where isSounding(slot, on: channel) {
            if !controllers.sostenutoDown { voices[slot].isHeldBySostenuto = false }
            if !controllers.sustainDown { voices[slot].isHeldBySustain = false }
            let voice = voices[slot]
            if !voice.isKeyDown && !voice.isHeldBySustain && !voice.isHeldBySostenuto && !voice.isOneShot && !voice.isReleasing {
                voices[slot].enterRelease(minimumFrames: minimumNoteFrames)
            }
        }
    }

    /// Starts one voice of `zone` reading `form` (struck, and held when published), and, for a
    /// sample-mode-3 SoundFont zone, going on in `formAfterRelease` once released (nil when the
    /// zone has none, or its region is unprepared: the voice then releases in its loop); returns its slot.
    private func start(
        channel: Int, zone: ZonePlayback, form struck: (region: PlaybackRegion, hold: FormHold?), plain: PlaybackRegion?,
        formAfterRelease: (region: PlaybackRegion, hold: FormHold?)?, layer: SamplerLayer, key: Int, velocity: Int, partLimit: Int
    ) -> Int {
        let voices = voices, parts = parts  // locals: `&&` would capture `self` (a retain)
        // Two budgets: the part's program's own voice count, then the pool shared by all parts.
        var counted = 0, countedOnPart = 0
        for slot in 0..<voiceSlots where voices[slot].isActive && !voices[slot].isStolen {
            counted += 1
            if voices[slot].channel == channel { countedOnPart += 1 }
        }
        if countedOnPart >= max(1, partLimit), let victim = stealCandidate(channel: channel) {
            voices[victim].steal(fadeSeconds: SamplerConstants.stealFadeSeconds)
            counted -= 1
        }
        if counted >= effectivePolyphony, let victim = stealCandidate(channel: nil) {
            voices[victim].steal(fadeSeconds: SamplerConstants.stealFadeSeconds)
        }
        let slot = freeSlot()
        voices[slot].releaseRegion()  // a fading voice whose slot is taken over
        var voice = voices[slot]
        let form = struck.region
        voice.hold = struck.hold
        voice.regionAfterRelease = formAfterRelease?.region
        voice.holdAfterRelease = formAfterRelease?.hold
        voice.isActive = true
        voice.channel = channel
        voice.startFrame = frameClock
        voice.isHeldBySostenuto = false
        voice.key = key
        voice.age = nextAge()
        voice.isKeyDown = true
        voice.isHeldBySustain = false
        voice.isStolen = false
        voice.isOneShot = zone.isOneShot
        voice.bankID = bankID
        voice.noteID = noteOnCounter
        voice.isSoundFont = false
        voice.region = form
        voice.plainRegion = plain
        voice.phase = 0
        voice.sourceRateRatio = form.sampleRate / sampleRate
        let transpose = zone.pitchTracking ? Double(key + layer.keyOffset) - zone.rootKey : 0
        voice.fixedCents = zone.fixedCents + 100 * transpose
        voice.rootHertz = 440 * RealTimeMath.exp2((zone.rootKey - 69) / 12)
        voice.bendRangeCents = 100 * layer.pitchBendRangeSemitones
        voice.startLFO(layer.lfo, seed: UInt32(truncatingIfNeeded: voice.age &* 0x9E37_79B9) | 1)
        voice.envelope.reset()
        voice.envelope.configure(layer.ampEnvelope)
        voice.envelope.noteOn()
        voice.staticGain = zone.gain * Float(ControllerCurves.velocityGain(velocity, curve: layer.velocityCurve) * parts[channel].controllers.strikeGain)
        voice.pan = zone.pan
        voice.respondsToVolume = layer.respondsToVolume
        voice.respondsToExpression = layer.respondsToExpression
        voice.respondsToPan = layer.respondsToPan
        voice.lastLevel = 0
        voice.lastCents = .nan
        voice.lastPanPosition = .nan
        voice.startsFresh = true
        // A part still ramping to a controller value sent just before: this voice starts (and
        // stays, until the ramp ends) at the value, not at the part's stale smoothed level.
        voice.followsTarget = parts[channel].gains.isRamping
        voice.filter.start(layer.filter, modulation: layer.filterModulation, key: key, velocity: velocity)
        if parts[channel].controllers.softPedalDown { voice.filter.shiftCutoff(cents: SamplerConstants.softPedalCutoffCents) }
        voices[slot] = voice
        return slot
    }

    private func nextAge() -> UInt64 {
        ageCounter &+= 1
        return ageCounter
    }

    /// The counted voice to steal (of `channel`, or of any part): one whose key is up (released,
    /// one-shot ringing out; quietest first), else the oldest held one; voices younger than
    /// `stealProtectionSeconds` only when nothing else is left (then the oldest of them).
    private func stealCandidate(channel: Int?) -> Int? {
        let voices = voices  // locals: `&&` would capture `self` (a retain)
        var best: Int?
        var bestRank = 0
        for slot in 0..<voiceSlots where voices[slot].isActive && !voices[slot].isStolen {
            let voice = voices[slot]
            if let channel, voice.channel != channel { continue }
            let rank = stealRank(voice)
            guard let current = best else { best = slot; bestRank = rank; continue }
            let other = voices[current]
            if rank != bestRank {
                if rank > bestRank { best = slot; bestRank = rank }
            } else if rank == 2 ? voice.loudness < other.loudness : voice.age < other.age {
                best = slot
            }
        }
        return best
    }

    /// 2: key up and not pedalled (or already releasing), 1: held, 0: just started (protected).
    private func stealRank(_ voice: SamplerVoice) -> Int {
        if frameClock &- voice.startFrame < protectionFrames { return 0 }
        let released = voice.isReleasing || (!voice.isKeyDown && !voice.isHeldBySustain && !voice.isHeldBySostenuto)
        return released ? 2 : 1
    }

    /// An idle slot. The quietest fading voice gives its slot up instead when every slot is busy,
    /// or when as many voices are fading as the polyphony budget: a flood of note-ons (hundreds a
    /// block) would otherwise keep the whole pool fading and render far more voices than the budget.
    private func freeSlot() -> Int {
        let voices = voices  // locals: `&&` would capture `self` (a retain)
        var idle: Int?
        var quietest = 0, fading = 0
        var quietestLevel = Float.infinity
        for slot in 0..<voiceSlots {
            if !voices[slot].isActive {
                idle = idle ?? slot
            } else if voices[slot].isStolen {
                fading += 1
                if voices[slot].fadingLevel < quietestLevel {
                    quietest = slot
                    quietestLevel = voices[slot].fadingLevel
                }
            }
        }
        guard let idle, fading < effectivePolyphony else { return quietest }
        return idle
    }
}
