import DSP

/// Containment of one voice gone bad: the voice filter (an AUSampler voice's) or the voice itself
/// (a SoundFont voice's, after FluidSynth's filter) checks each chunk filtered, and a voice whose
/// chunk ends non-finite or beyond +80 dBFS stops there, counted
/// (`SamplerInstrument.runawayVoiceCount`), while the others play on. Left alone it would reach
/// the bus, whose guard silences the whole bus — every other note with it — block after block for
/// as long as the note lasts. The voice filter itself (a state-variable filter) stays bounded at
/// any setting an edge-checked preset can give it; this is the line behind that (a direct-form
/// biquad swept at full resonance by a 100 Hz LFO ran away within 10 ms).
enum VoiceGuard {
    /// True when the chunk ends non-finite or beyond `NonFiniteGuard.maximumMagnitude`. One look
    /// per chunk: a filter's NaN persists to the chunk's end, and a runaway keeps growing.
    static func ranAway(_ chunk: StereoBlock) -> Bool {
        guard chunk.frames > 0 else { return false }
        let last = chunk.frames - 1
        // `!(a <= limit)` is also true for NaN.
        return !(abs(chunk.left[last]) <= NonFiniteGuard.maximumMagnitude && abs(chunk.right[last]) <= NonFiniteGuard.maximumMagnitude)
    }
}

extension SamplerVoice {
    /// Ends a voice whose chunk ran away (nothing of the chunk is mixed) and counts it.
    mutating func stopRunaway() {
        runaways += 1
        isActive = false
    }
}

extension SamplerInstrument {
    /// Voices stopped because their output ran away (NaN, infinity or beyond +80 dBFS) since
    /// start. Render thread (or between offline blocks).
    public var runawayVoiceCount: Int {
        @_noAllocation get {
            var count = 0
            for slot in 0..<voiceSlots { count += voices[slot].runaways }
            return count
        }
    }
}
