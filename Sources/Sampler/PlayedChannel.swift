/// One channel of a region as it plays: the waveform's frames up to the loop end, then the loop
/// again and again (unlooped: up to the last frame, then silence). What the level builder reads.
/// Valid while the waveform it points into lives (`LevelRequest` keeps it).
import MemberwiseInit

@PublicInit
public struct PlayedChannel {
    public var frames: StoredFrames
    public var frameCount: Int
    public var loop: SamplerLoop?

    /// Writes frames `first ..< first + count` × `scale` to `output` as Float (0 before frame 0
    /// and after the end), run by run. Scaling makes the copies loops rather than memcpy, which
    /// callgrind counts byte by byte (rep movsb).
    public func read(from first: Int, count: Int, scale: Float, into output: UnsafeMutablePointer<Float>) {
        forEachRun(from: first, count: count) { offset, source, run in
            switch source {
            case .float(let frames)?: Self.copy(frames, count: run, scale: scale, into: output + offset)
            case .pcm16(let frames)?: Self.copy(frames, count: run, scale: scale * StoredFrames.pcm16Scale, into: output + offset)
            case nil: (output + offset).update(repeating: 0, count: run)
            }
        }
    }

    /// The same frames in their stored form (no scaling) to `output`, which holds `count` of them
    /// in that form: a looped region's plain copy.
    func copyStored(from first: Int, count: Int, into output: UnsafeMutableRawPointer) {
        let size = frames.bytesPerFrame
        forEachRun(from: first, count: count) { offset, source, run in
            if let source {
                (output + offset * size).copyMemory(from: source.raw, byteCount: run * size)
            } else {
                (output + offset * size).initializeMemory(as: UInt8.self, repeating: 0, count: run * size)
            }
        }
    }

    /// Frames `first ..< first + count` as runs: (offset in the output, where the run's frames
    /// are or nil for silence, frames in the run).
    private func forEachRun(from first: Int, count: Int, _ body: (Int, StoredFrames?, Int) -> Void) {
        let end = loop?.endFrame ?? frameCount
        var i = 0
        while i < count {
            let frame = first + i
            var run: Int, start: Int?
            if frame < 0 {
                run = min(count - i, -frame); start = nil
            } else if frame < end {
                run = min(count - i, end - frame); start = frame
            } else if let loop {
                let length = loop.endFrame - loop.startFrame, offset = (frame - loop.endFrame) % length
                run = min(count - i, length - offset); start = loop.startFrame + offset
            } else {
                run = count - i; start = nil
            }
            body(i, start.map { frames.advanced(by: $0) }, run)
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

    /// `count` 16-bit points as Float × `scale`, eight at a time.
    static func copy(_ source: UnsafePointer<Int16>, count: Int, scale: Float, into output: UnsafeMutablePointer<Float>) {
        let vectorScale = SIMD8<Float>(repeating: scale)
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(output)
        var j = 0
        while j + 8 <= count {
            to.storeBytes(of: SIMD8<Float>(from.loadUnaligned(fromByteOffset: 2 * j, as: SIMD8<Int16>.self)) * vectorScale, toByteOffset: 4 * j, as: SIMD8<Float>.self)
            j += 8
        }
        while j < count {
            output[j] = Float(source[j]) * scale
            j += 1
        }
    }
}

extension StoredFrames {
    /// The frames from `frame` on.
    func advanced(by frame: Int) -> StoredFrames {
        switch self {
        case .float(let frames): .float(frames + frame)
        case .pcm16(let frames): .pcm16(frames + frame)
        }
    }
}
