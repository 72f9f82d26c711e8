/// What one region of a program needs from the level builder (`SamplerLevels`): the frames it
/// plays and how many levels (`LevelLayout`). Listed by `SamplerProgram.levelRequests`, answered
/// with `SamplerProgram.publishLevels(_:for:)`. Keeps the waveform alive, so `played(channel:)`
/// stays valid as long as the request does.
public struct LevelRequest: Sendable {
    /// The region's index in its program.
    public let region: Int
    public let waveform: SamplerWaveform
    /// The loop the region plays (nil: once through).
    public let loop: SamplerLoop?
    /// Levels to build: the first `levelCount` of `LevelLayout`, those that cover the largest step
    /// the region's zones can ask for and, room permitting, steps to 4 (+24 semitones), so that
    /// bends and RPN ranges the preset does not foresee stay alias-free (`SamplerProgram.largestStep`).
    public let levelCount: Int
    /// The fewest worth building: those that cover the zones' own reach (key range, tunings, bend
    /// range, LFO), without the margin. A budget that cannot hold `levelCount` builds these.
    public let reachLevelCount: Int

    /// Frames the region plays before it stops (unlooped) or wraps (its loop end).
    public var endFrame: Int { loop?.endFrame ?? waveform.frameCount }

    /// Channel `channel` (0 or 1) of the region as it plays.
    public func played(channel: Int) -> PlayedChannel { waveform.played(channel: channel, loop: loop) }
}
