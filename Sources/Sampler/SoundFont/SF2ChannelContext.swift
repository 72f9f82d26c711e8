import DSP

/// What a part hands its SoundFont voices each chunk besides the common render context: the
/// controller state their modulators read, scratch memory for evaluating them, and the part's
/// send accumulators. Plain values and pointers; render-thread safe.
struct SF2ChannelContext {
    /// Incremented by the part on every controller, pressure or bend change: a voice whose
    /// evaluation is older re-evaluates its modulators before its next chunk.
    var modulationEpoch: UInt32 = 0
    var channelPressure = 0
    /// 128 poly-pressure values, by key.
    var polyPressure: UnsafePointer<UInt8>
    /// Pitch wheel 0…16383 and RPN 0 sensitivity in semitones.
    var pitchWheel = 8192
    var bendSensitivity = 2.0
    /// `SF2Generator.count` doubles of the worker rendering the part (its voices evaluate one at a time).
    var generatorScratch: UnsafeMutablePointer<Double>
    /// FluidSynth's minimum note length (10 ms), frames.
    var minimumNoteFrames = 0
    /// The part's reverb and chorus send sums for this chunk (voices add output × their send);
    /// `hasSends` false when the engine takes no sends (then nothing is accumulated).
    var reverb: StereoBlock
    var chorus: StereoBlock
    var hasSends = false
    /// Set by a voice that added to `reverb` / `chorus` this chunk.
    var sent: UnsafeMutablePointer<Bool>

    /// The modulator sources for a voice on `key`.
    @_noAllocation
    func sources(key: Int, velocity: Int, controllers: UnsafePointer<UInt8>) -> SF2ModulationSources {
        SF2ModulationSources(
            key: key, velocity: velocity, controllers: controllers, channelPressure: channelPressure,
            polyPressure: Int(polyPressure[key & 127]), pitchWheel: pitchWheel, bendSensitivity: bendSensitivity)
    }
}
