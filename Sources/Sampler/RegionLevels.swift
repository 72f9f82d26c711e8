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
    /// 4 (Float) or 2 (16-bit integers, each level of each channel with its own scale).
    public let bytesPerSample: Int
    /// Memory held, bytes.
    public let byteCount: Int
    /// `LevelLayout.count` entries; those above `levelCount` repeat the top one built.
    let table: UnsafeMutablePointer<PlaybackLevel>
    private let buffers: [UnsafeMutableRawPointer]

    /// One channel's levels: Float, or 16-bit integers with a scale each (made by SamplerLevels' `LevelQuantizer`).
    public enum Channel {
        case float([UnsafeMutablePointer<Float>])
        case int16([(samples: UnsafeMutablePointer<Int16>, scale: Float)])

        var levelCount: Int {
            switch self {
            case .float(let levels): levels.count
            case .int16(let levels): levels.count
            }
        }

        /// Level `level`'s buffer (from its first guard frame) and its scale.
        func level(_ level: Int) -> (UnsafeMutableRawPointer, Float) {
            switch self {
            case .float(let levels): (UnsafeMutableRawPointer(levels[level]), 1)
            case .int16(let levels): (UnsafeMutableRawPointer(levels[level].samples), levels[level].scale)
            }
        }
    }

    /// Takes ownership of `buffers[channel][level]` (1 or 2 channels, `levelCount` levels each):
    /// each holds (`frames` + 2 × `LevelLayout.guardFrames`) × `LevelLayout.oversampling[level]`
    /// floats, stored frame 0 at `guardFrames` × oversampling, allocated with
    /// `UnsafeMutablePointer<Float>.allocate`.
    /// `released` runs when the levels are freed (the last program holding them let go), with
    /// `byteCount`: a budget's accounting.
    public convenience init(frames: Int, buffers: [[UnsafeMutablePointer<Float>]], released: (@Sendable (Int) -> Void)? = nil) {
        self.init(frames: frames, channels: buffers.map { .float($0) }, released: released)
    }

    /// The same from channels stored either way (both the same way); 16-bit ones allocated as `Int16`.
    public init(frames: Int, channels: [Channel], released: (@Sendable (Int) -> Void)? = nil) {
        let levelCount = channels.first?.levelCount ?? 0
        precondition((1...2).contains(channels.count) && channels.allSatisfy { $0.levelCount == levelCount }, "1 or 2 channels of equal level count")
        precondition((1...LevelLayout.count).contains(levelCount), "1 … \(LevelLayout.count) levels")
        var isInt16 = false
        if case .int16 = channels[0] { isInt16 = true }
        self.frames = frames
        self.levelCount = levelCount
        channelCount = channels.count
        bytesPerSample = isInt16 ? 2 : 4
        let guardFrames = LevelLayout.guardFrames
        table = .allocate(capacity: LevelLayout.count)
        for index in 0..<LevelLayout.count {
            let level = min(index, levelCount - 1), r = LevelLayout.oversampling[level]
            let (left, leftScale) = channels[0].level(level), (right, rightScale) = channels[channels.count - 1].level(level)
            let offset = guardFrames * r * bytesPerSample
            (table + index).initialize(to: PlaybackLevel(
                left: UnsafeRawPointer(left + offset), right: UnsafeRawPointer(right + offset), oversampling: r, isInt16: isInt16,
                scale: leftScale, rightScale: rightScale))
        }
        byteCount = Self.byteCount(frames: frames, levelCount: levelCount, channelCount: channels.count, bytesPerSample: bytesPerSample)
        buffers = (0..<channels.count).flatMap { channel in (0..<levelCount).map { channels[channel].level($0).0 } }
        self.released = released
    }

    private let released: (@Sendable (Int) -> Void)?

    /// The memory `levelCount` levels of `frames` source frames take, guards included, bytes
    /// (`bytesPerSample` 2 for a 16-bit waveform's levels).
    public static func byteCount(frames: Int, levelCount: Int, channelCount: Int, bytesPerSample: Int = 4) -> Int {
        let stored = LevelLayout.oversampling.prefix(levelCount).reduce(0) { $0 + (frames + 2 * LevelLayout.guardFrames) * $1 }
        return bytesPerSample * stored * channelCount
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
        table.deallocate()
        released?(byteCount)
    }
}
