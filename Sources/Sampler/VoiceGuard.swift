import DSP

/// Containment of one voice gone bad. A voice filter at high resonance whose cutoff an LFO sweeps
/// fast can run away (the biquad is stable for fixed coefficients, not for ones that move every
/// 8 frames): its output grows exponentially, then turns infinite and NaN. Left alone it would
/// reach the bus, whose guard silences the whole bus — every other note with it — block after
/// block for as long as the note lasts. Instead the voice filter checks each chunk it filters and
/// the voice stops there, counted (`SamplerInstrument.runawayVoiceCount`); the others play on.
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

extension SamplerInstrument {
    /// Voices stopped because their output ran away (NaN, infinity or beyond +80 dBFS) since
    /// start. Render thread (or between offline blocks).
    public var runawayVoiceCount: Int {
        var count = 0
        for slot in 0..<voiceSlots { count += voices[slot].filter.runaways }
        return count
    }
}
