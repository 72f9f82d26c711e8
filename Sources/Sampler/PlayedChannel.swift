/// One channel of a region as it plays: the waveform's frames up to the loop end, then the loop
/// again and again (unlooped: up to the last frame, then silence). What the level builder reads.
/// Valid while the waveform it points into lives (`LevelRequest` keeps it).
import MemberwiseInit

@PublicInit
public struct PlayedChannel {
    public var frames: UnsafePointer<Float>
    public var frameCount: Int
    public var loop: SamplerLoop?

    /// Writes frames `first ..< first + count` × `scale` to `output` (0 before frame 0 and after
    /// the end), run by run. Scaling makes the copies loops rather than memcpy, which callgrind
    /// counts byte by byte (rep movsb).
    public func read(from first: Int, count: Int, scale: Float, into output: UnsafeMutablePointer<Float>) {
        var i = 0
        while i < count {
            let frame = first + i
            var run: Int, source: UnsafePointer<Float>?
            if frame < 0 {
                run = min(count - i, -frame); source = nil
            } else if frame < (loop?.endFrame ?? frameCount) {
                run = min(count - i, (loop?.endFrame ?? frameCount) - frame); source = frames + frame
            } else if let loop {
                let length = loop.endFrame - loop.startFrame, offset = (frame - loop.endFrame) % length
                run = min(count - i, length - offset); source = frames + loop.startFrame + offset
            } else {
                run = count - i; source = nil
            }
            if let source {
                Self.copy(source, count: run, scale: scale, into: output + i)
            } else {
                (output + i).update(repeating: 0, count: run)
            }
            i += run
        }
    }

    /// `count` floats × `scale`, eight at a time (the scalar loop was ~6 instructions a frame
    /// under callgrind, memcpy one per byte).
    public static func copy(_ source: UnsafePointer<Float>, count: Int, scale: Float, into output: UnsafeMutablePointer<Float>) {
        let vectorScale = SIMD8<Float>(repeating: scale)
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(output)
        var j = 0
        while j + 8 <= count {
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: 4 * j, as: SIMD8<Float>.self) * vectorScale, toByteOffset: 4 * j, as: SIMD8<Float>.self)
            j += 8
        }
        while j < count {
            output[j] = source[j] * scale
            j += 1
        }
    }
}
