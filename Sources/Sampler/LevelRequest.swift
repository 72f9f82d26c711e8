/// What one region of a program needs from the loading side (`SamplerLevels`): the frames it
/// plays and how many levels (`LevelLayout`), or, for a region of a deferred waveform without a
/// form yet, its frames read (`kind` `.plain`). Listed by `SamplerProgram.levelRequests`, answered
/// with `SamplerProgram.publishLevels(_:for:)` or `publishFrames(_:for:)`. Keeps the waveform (and
/// the frames its levels are built from) alive, so `played(channel:)` stays valid as long as the request does.
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
    /// Every zone playing the region plays it at its root pitch (`SamplerZone.playsAtRootPitch`).
    public let playsAtRootPitch: Bool
    /// What it asks for: the region's levels, or (a deferred waveform's region with no form yet)
    /// its frames read from the waveform's source (`RegionFrames`).
    public private(set) var kind = FormKind.levels
    /// The levels of a deferred waveform's region: the frames they are built from (its published plain form).
    public private(set) var frames: RegionFrames?

    init(region: Int, waveform: SamplerWaveform, loop: SamplerLoop?, levelCount: Int, reachLevelCount: Int, playsAtRootPitch: Bool = false) {
        self.region = region
        self.waveform = waveform
        self.loop = loop
        self.levelCount = levelCount
        self.reachLevelCount = reachLevelCount
        self.playsAtRootPitch = playsAtRootPitch
    }

    /// Whether the region's voices can read what it asks for when the output runs at `rate`: not
    /// its levels when they all play it at its root pitch at its own rate, one frame per output
    /// frame, where they read its frames as they are (`SamplerVoice.readChunk`).
    public func needsLevels(atOutputRate rate: Double) -> Bool {
        kind == .plain || !(playsAtRootPitch && waveform.sampleRate == rate)
    }

    /// The same region asking for `kind`, its levels built from `frames` (a deferred waveform's).
    func asking(_ kind: FormKind, from frames: RegionFrames? = nil) -> LevelRequest {
        var request = self
        request.kind = kind
        request.frames = frames
        return request
    }

    /// Frames the region plays before it stops (unlooped) or wraps (its loop end).
    public var endFrame: Int { loop?.endFrame ?? waveform.frameCount }

    /// Channel `channel` (0 or 1) of the region as it plays (a levels request's).
    public func played(channel: Int) -> PlayedChannel { frames?.played(channel: channel) ?? waveform.played(channel: channel, loop: loop) }
}
