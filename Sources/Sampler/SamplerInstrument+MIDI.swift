import DSP
import MIDI

extension SamplerInstrument {
    /// Render thread: applies one MIDI message at the current position (the engine splits blocks
    /// at event frames). Note-on/off, CC1 vibrato, CC7 volume, CC10 pan, CC11 expression, CC64
    /// sustain, CC120/121/123, pitch bend. Others are ignored.
    public func handle(_ message: MIDIMessage) {
        switch message.normalized {
        case .noteOn(_, let note, let velocity):
            noteOn(key: Int(note), velocity: Int(velocity))
        case .noteOff(_, let note, _):
            noteOff(key: Int(note))
        case .controlChange(_, let controller, let value):
            controlChange(controller, value: Int(value))
        case .pitchBend(_, let value):
            controls.bend = Double(value) / 8192
        case .polyPressure, .programChange, .channelPressure:
            break
        }
    }

    private func controlChange(_ controller: UInt8, value: Int) {
        controllerValues[Int(controller & 0x7F)] = UInt8(clamping: value)
        switch controller {
        case MIDIController.modulationWheel: controls.modWheel = Double(value) / 127
        case MIDIController.volume: controls.setVolume(value)
        case MIDIController.expression: controls.setExpression(value)
        case MIDIController.pan: controls.setPan(value)
        case MIDIController.sustainPedal:
            controls.sustainPedalDown = value >= 64
            if !controls.sustainPedalDown { releaseSustainedVoices() }
        case MIDIController.allSoundOff:
            for slot in 0..<voiceSlots where voices[slot].isActive {
                voices[slot].steal(fadeSeconds: Self.allSoundOffFadeSeconds)
            }
        case MIDIController.resetAllControllers:
            controls.resetControllers()
            releaseSustainedVoices()
        case MIDIController.allNotesOff:
            for slot in 0..<voiceSlots where voices[slot].isActive && voices[slot].isKeyDown {
                release(slot)
            }
        default:
            break
        }
    }

    /// Starts one voice for every enabled zone of every layer that answers `key` and `velocity`.
    private func noteOn(key: Int, velocity: Int) {
        acceptPendingProgram()
        guard programID != 0 else { return }
        // Re-strike: the same key's old voices fade quickly instead of stacking up.
        for slot in 0..<voiceSlots where voices[slot].isActive && !voices[slot].isStolen && voices[slot].key == key {
            voices[slot].steal(fadeSeconds: Self.stealFadeSeconds)
        }
        for zoneIndex in 0..<zones.count {
            let zone = zones[zoneIndex]
            let layer = layers[zone.layer]
            guard key >= layer.minKey, key <= layer.maxKey else { continue }
            let shiftedKey = key + layer.keyOffset
            guard shiftedKey >= zone.minKey, shiftedKey <= zone.maxKey,
                  velocity >= zone.minVelocity, velocity <= zone.maxVelocity else { continue }
            start(zone: zone, layer: layer, key: key, velocity: velocity)
        }
    }

    private func noteOff(key: Int) {
        for slot in 0..<voiceSlots where voices[slot].isActive && voices[slot].isKeyDown && voices[slot].key == key {
            release(slot)
        }
    }

    /// Key released: enter the envelope release unless the voice is one-shot or the pedal holds it.
    private func release(_ slot: Int) {
        voices[slot].isKeyDown = false
        guard !voices[slot].isOneShot, !voices[slot].isStolen else { return }
        if controls.sustainPedalDown {
            voices[slot].isHeldBySustain = true
        } else {
            voices[slot].envelope.noteOff()
            voices[slot].filter.noteOff()
        }
    }

    private func releaseSustainedVoices() {
        for slot in 0..<voiceSlots where voices[slot].isActive && voices[slot].isHeldBySustain {
            voices[slot].isHeldBySustain = false
            voices[slot].envelope.noteOff()
            voices[slot].filter.noteOff()
        }
    }

    private func start(zone: ZonePlayback, layer: SamplerLayer, key: Int, velocity: Int) {
        var counted = 0
        for slot in 0..<voiceSlots where voices[slot].isActive && !voices[slot].isStolen { counted += 1 }
        if counted >= effectivePolyphony, let victim = stealCandidate() {
            voices[victim].steal(fadeSeconds: Self.stealFadeSeconds)
        }
        let slot = freeSlot()
        let region = regions[zone.region]
        var voice = voices[slot]
        voice.isActive = true
        voice.key = key
        voice.age = nextAge()
        voice.isKeyDown = true
        voice.isHeldBySustain = false
        voice.isStolen = false
        voice.isOneShot = zone.isOneShot
        voice.programID = programID
        voice.region = region
        voice.phase = 0
        voice.sourceRateRatio = region.sampleRate / sampleRate
        let transpose = zone.pitchTracking ? Double(key + layer.keyOffset) - zone.rootKey : 0
        voice.fixedCents = zone.fixedCents + 100 * transpose
        voice.bendRangeCents = 100 * layer.pitchBendRangeSemitones
        voice.vibratoRateHz = layer.vibratoRateHz
        voice.vibratoDepthCents = layer.vibratoDepthCents
        voice.vibratoPhase = 0
        voice.envelope.reset()
        voice.envelope.configure(layer.ampEnvelope)
        voice.envelope.noteOn()
        voice.staticGain = zone.gain * Float(ControllerCurves.velocityGain(velocity, curve: layer.velocityCurve))
        voice.pan = zone.pan
        voice.respondsToVolume = layer.respondsToVolume
        voice.respondsToExpression = layer.respondsToExpression
        voice.respondsToPan = layer.respondsToPan
        voice.lastLevel = 0
        voice.lastCents = .nan
        voice.lastPanPosition = .nan
        voice.startsFresh = true
        voice.filter.start(layer.filter, modulation: layer.filterModulation, key: key, velocity: velocity)
        voices[slot] = voice
    }

    private func nextAge() -> UInt64 {
        ageCounter &+= 1
        return ageCounter
    }

    /// The counted voice to steal: a released one (quietest first), else the oldest.
    private func stealCandidate() -> Int? {
        var best: Int?
        var bestReleased = false
        for slot in 0..<voiceSlots where voices[slot].isActive && !voices[slot].isStolen {
            let voice = voices[slot]
            let released = voice.envelope.isReleasing
            guard let current = best else { best = slot; bestReleased = released; continue }
            let other = voices[current]
            if released != bestReleased {
                if released { best = slot; bestReleased = true }
            } else if released ? voice.envelope.output < other.envelope.output : voice.age < other.age {
                best = slot
            }
        }
        return best
    }

    /// An idle slot; if every slot is busy (many steals within one fade time), the quietest
    /// fading voice gives its slot up.
    private func freeSlot() -> Int {
        var quietest = 0
        var quietestLevel = Float.infinity
        for slot in 0..<voiceSlots {
            if !voices[slot].isActive { return slot }
            if voices[slot].isStolen && voices[slot].envelope.output < quietestLevel {
                quietest = slot
                quietestLevel = voices[slot].envelope.output
            }
        }
        return quietest
    }
}
