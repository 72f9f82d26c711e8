/// How a region's band-limited levels are laid out, as the voices read them. The filters that fill
/// them belong to the loading side (`SamplerLevels`, whose README tells the design and its
/// measurements); this is what both sides must agree on.
///
/// Level k holds the region low-passed for steps up to `maxSteps[k]` source frames per output
/// frame, stored at `oversampling[k]` frames per source frame (so loop points stay whole), with
/// `guardFrames` stored frames either side. A voice reads the first level whose step covers its
/// own (the top level built beyond it) with a 4-point kernel (live) or 16 taps (offline).
public enum LevelLayout {
    /// Levels of a fully built region. A literal: the voices read it per chunk, and a count of
    /// `maxSteps` would be a lazily initialised global, checked (swift_once) on every read.
    public static var count: Int { 6 }
    /// The largest step each level serves: half octaves up to 4 (+24 semitones), then 8.
    public static let maxSteps: [Double] = [1, 2.0.squareRoot(), 2, 8.0.squareRoot(), 4, 8]
    /// Stored frames per source frame of each level (its edge at ≤ 0.125 cycles per stored frame).
    public static let oversampling = [4, 3, 2, 2, 1, 1]
    /// The largest of `oversampling`: a region longer than `Int32.max / maxOversampling` frames
    /// keeps its plain form (its 32.32 phase in stored frames would overflow).
    public static let maxOversampling = 4
    /// Stored frames kept before frame 0 and after the last frame of every level, so the widest
    /// kernel window never leaves the buffer.
    public static let guardFrames = 16

    /// Regions this short (one-cycle tables such as the built-in sine, stepped tens to hundreds of
    /// frames per output frame) stop at the step-4 level: their abrupt start rings in a level
    /// low-passed further, the louder the lower its edge (a steal test on the sine at steps 9–10
    /// measured a third difference of 1.95 × its click bound on a step-16 level, within it on step 4).
    static let shortRegionFrames = 4096
    static let shortRegionTopStep = 4.0

    /// How many levels a region of `frames` played frames needs when its zones ask for steps up
    /// to `largestStep`: up to the first level that covers it (all, beyond the top one); a short
    /// region at most to step 4; a region too long to index at `maxOversampling` none (it plays plain).
    public static func levelCount(frames: Int, largestStep: Double) -> Int {
        let covering = (maxSteps.firstIndex { $0 >= largestStep } ?? count - 1) + 1
        // Stored frames index a 32.32 phase: beyond 2³¹ of them, only the top level (r = 1) is safe.
        if frames > Int(Int32.max) / maxOversampling { return 0 }
        guard frames <= shortRegionFrames else { return covering }
        return min(covering, maxSteps.firstIndex { $0 == shortRegionTopStep }! + 1)
    }
}
