/// The band-limited levels of one region, built on the loading side (`SamplerLevels`) and handed
/// to the program with `SamplerProgram.publishLevels(_:for:)`. Owns its buffers and frees them
/// when the last program holding it goes. Several programs may publish the same object (regions
/// of one waveform and loop in presets that share a sample).
///
/// @unchecked Sendable: immutable after `init` (its buffers are written before it is made and
/// only read afterwards); the voices read them through the published form's plain pointers.
public final class RegionLevels: @unchecked Sendable {
    /// Source frames each level holds from frame 0, guards not counted: the region's end
    /// (unlooped), or how far past the loop end a voice reads before it jumps back one loop length.
    public let frames: Int
    /// Levels built (the first `levelCount` of `LevelLayout`).
    public let levelCount: Int
    public let channelCount: Int
    /// Memory held, bytes.
    public let byteCount: Int
    /// `LevelLayout.count` entries; those above `levelCount` repeat the top one built.
    let table: UnsafeMutablePointer<PlaybackLevel>
    private let buffers: [UnsafeMutablePointer<Float>]

    /// Takes ownership of `buffers[channel][level]` (1 or 2 channels, `levelCount` levels each):
    /// each holds (`frames` + 2 × `LevelLayout.guardFrames`) × `LevelLayout.oversampling[level]`
    /// floats, stored frame 0 at `guardFrames` × oversampling, allocated with
    /// `UnsafeMutablePointer<Float>.allocate`.
    /// `released` runs when the levels are freed (the last program holding them let go), with
    /// `byteCount`: a budget's accounting.
    public init(frames: Int, buffers: [[UnsafeMutablePointer<Float>]], released: (@Sendable (Int) -> Void)? = nil) {
        let levelCount = buffers.first?.count ?? 0
        precondition((1...2).contains(buffers.count) && buffers.allSatisfy { $0.count == levelCount }, "1 or 2 channels of equal level count")
        precondition((1...LevelLayout.count).contains(levelCount), "1 … \(LevelLayout.count) levels")
        self.frames = frames
        self.levelCount = levelCount
        channelCount = buffers.count
        let guardFrames = LevelLayout.guardFrames
        table = .allocate(capacity: LevelLayout.count)
        for index in 0..<LevelLayout.count {
            let level = min(index, levelCount - 1), r = LevelLayout.oversampling[level]
            let left = UnsafePointer(buffers[0][level] + guardFrames * r)
            let right = buffers.count == 2 ? UnsafePointer(buffers[1][level] + guardFrames * r) : left
            (table + index).initialize(to: PlaybackLevel(left: UnsafeRawPointer(left), right: UnsafeRawPointer(right), oversampling: r))
        }
        byteCount = Self.byteCount(frames: frames, levelCount: levelCount, channelCount: buffers.count)
        self.buffers = buffers.flatMap { $0 }
        self.released = released
    }

    private let released: (@Sendable (Int) -> Void)?

    /// The memory `levelCount` levels of `frames` source frames take, guards included, bytes.
    public static func byteCount(frames: Int, levelCount: Int, channelCount: Int) -> Int {
        let stored = LevelLayout.oversampling.prefix(levelCount).reduce(0) { $0 + (frames + 2 * LevelLayout.guardFrames) * $1 }
        return 4 * stored * channelCount
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
        table.deallocate()
        released?(byteCount)
    }
}
