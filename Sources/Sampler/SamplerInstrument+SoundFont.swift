/// What a note-on does beyond starting voices when its zones are SoundFont zones: the voice's
/// SoundFont state, exclusive classes and FluidSynth's re-strike rule. Render thread.
extension SamplerInstrument {
    /// Turns the voice `start` just set up in `slot` into a SoundFont voice of `tables`, and
    /// chokes the older voices of its exclusive class on the channel.
    func startSoundFont(slot: Int, tables: SF2ZoneTables, velocity: Int) {
        let channel = voices[slot].channel, key = voices[slot].key
        let part = UnsafePointer(parts + channel)
        let sources = SF2ChannelState(part, polyPressure: soundFontMemory.polyPressure(channel: channel))
            .sources(key: key, velocity: velocity, controllers: part.pointee.controllerValues)
        voices[slot].isSoundFont = true
        voices[slot].sf.resetRenderState()
        voices[slot].sf.start(
            zone: tables, key: key, velocity: velocity, sources: sources, sampleRate: sampleRate, epoch: part.pointee.modulationEpoch,
            scratch: workers[0].generators)
        voices[slot].phase = UInt64(tables.startFrame) << 32
        voices[slot].filter.isEnabled = false
        if tables.exclusiveClass != 0 { choke(exclusiveClass: tables.exclusiveClass, channel: channel, sparing: voices[slot].noteID) }
    }

    /// FluidSynth's re-strike: an older voice on the struck key releases at once, pedals or not.
    func releaseRestruck(_ slot: Int) {
        voices[slot].isKeyDown = false
        voices[slot].isHeldBySustain = false
        voices[slot].isHeldBySostenuto = false
        voices[slot].enterRelease(minimumFrames: minimumNoteFrames)
    }

    /// Releases fast (FluidSynth's −200 tc) every SoundFont voice of `exclusiveClass` on
    /// `channel` not started by note-on `noteID`: the closed hi-hat chokes the open one.
    private func choke(exclusiveClass: Int, channel: Int, sparing noteID: UInt64) {
        for slot in 0..<voiceSlots {
            let voice = voices[slot]
            guard voice.isActive, !voice.isStolen, voice.isSoundFont, voice.channel == channel, voice.noteID != noteID,
                  voice.sf.exclusiveClass == exclusiveClass else { continue }
            voices[slot].isHeldBySustain = false
            voices[slot].isHeldBySostenuto = false
            voices[slot].sf.choke(sampleRate: sampleRate)
            voices[slot].enterRelease(minimumFrames: minimumNoteFrames)
        }
    }
}
