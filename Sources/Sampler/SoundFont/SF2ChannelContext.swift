import DSP

/// The part's controller state a SoundFont voice's modulators read in one chunk (`PartChunk`).
/// Plain values and a pointer; render-thread safe.
struct SF2ChannelState {
    /// Incremented by the part on every controller, pressure or bend change: a voice whose
    /// evaluation is older re-evaluates its modulators before its next chunk.
    var modulationEpoch: UInt32 = 0
    var channelPressure = 0
    /// 128 poly-pressure values, by key.
    var polyPressure: UnsafePointer<UInt8>
    /// Pitch wheel 0…16383 and RPN 0 sensitivity in semitones.
    var pitchWheel = 8192
    var bendSensitivity = 2.0

    /// The modulator sources for a voice on `key`.
    @_noAllocation
    func sources(key: Int, velocity: Int, controllers: UnsafePointer<UInt8>) -> SF2ModulationSources {
        SF2ModulationSources(
            key: key, velocity: velocity, controllers: controllers, channelPressure: channelPressure,
            polyPressure: Int(polyPressure[key & 127]), pitchWheel: pitchWheel, bendSensitivity: bendSensitivity)
    }
}

extension SF2ChannelState {
    /// Part `part`'s state now (read in place: a copy of the part retains its tables), with its
    /// 128 poly-pressure values at `polyPressure`.
    @_noAllocation
    init(_ part: UnsafePointer<SamplerPart>, polyPressure: UnsafePointer<UInt8>) {
        let controllers = part.pointee.controllers
        self.init(
            modulationEpoch: part.pointee.modulationEpoch, channelPressure: Int(part.pointee.channelPressure), polyPressure: polyPressure,
            pitchWheel: Int(min(max(controllers.bend * 8192 + 8192, 0), 16_383)), bendSensitivity: controllers.bendRangeSemitones ?? 2)
    }
}

/// What a worker hands the SoundFont voices it renders besides the common render context: scratch
/// memory for evaluating their modulators, and the send accumulators of the group it renders.
/// Plain values and pointers; render-thread safe.
struct SF2ChannelContext {
    /// `SF2Generator.count` doubles of the worker (its voices evaluate one at a time).
    var generatorScratch: UnsafeMutablePointer<Double>
    /// FluidSynth's minimum note length (10 ms), frames.
    var minimumNoteFrames = 0
    /// The group's reverb and chorus send sums for this chunk (voices add output × their send,
    /// when the chunk's `PartChunk.hasSends`).
    var reverb: StereoBlock
    var chorus: StereoBlock
    /// Set by a voice that added to `reverb` / `chorus` this chunk.
    var sent: UnsafeMutablePointer<Bool>
}
