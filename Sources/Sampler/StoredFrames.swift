/// Where a waveform keeps one channel's frames, and in what form: Float, or the 16-bit points of
/// a 16-bit source (value / 32768, exactly the Float the source gives) at half the memory, as
/// FluidSynth keeps a SoundFont's. Points at frame 0; the storage is guarded either side.
public enum StoredFrames {
    case float(UnsafePointer<Float>)
    case pcm16(UnsafePointer<Int16>)

    /// Bytes one frame takes.
    public var bytesPerFrame: Int {
        switch self {
        case .float: 4
        case .pcm16: 2
        }
    }

    var raw: UnsafeRawPointer {
        switch self {
        case .float(let frames): UnsafeRawPointer(frames)
        case .pcm16(let frames): UnsafeRawPointer(frames)
        }
    }

    var isPCM16: Bool {
        if case .pcm16 = self { return true }
        return false
    }

    /// The value of one 16-bit point.
    static let pcm16Scale = Float(1) / 32_768
}

/// One channel's frames stored with `LevelLayout.guardFrames` zeros either side, as every plain
/// form is read (the 4-point window reaches past both ends).
enum GuardedFrames {
    /// A buffer of `frames` + 2 × guard frames of `bytesPerFrame`, 16-byte aligned, its guards
    /// zeroed and its frames left for the caller to write (`zeroed`: those zeroed too; writing
    /// them twice was a fifth of loading a SoundFont); the caller deallocates it. Frame 0 lies
    /// `guardFrames` × `bytesPerFrame` bytes in.
    static func allocate(frames: Int, bytesPerFrame: Int, zeroed: Bool = false) -> UnsafeMutableRawPointer {
        let guardBytes = LevelLayout.guardFrames * bytesPerFrame, frameBytes = frames * bytesPerFrame
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: frameBytes + 2 * guardBytes, alignment: 16)
        if zeroed {
            buffer.initializeMemory(as: UInt8.self, repeating: 0, count: frameBytes + 2 * guardBytes)
        } else {
            buffer.initializeMemory(as: UInt8.self, repeating: 0, count: guardBytes)
            (buffer + guardBytes + frameBytes).initializeMemory(as: UInt8.self, repeating: 0, count: guardBytes)
        }
        return buffer
    }

    /// Frames at `zero` stored with `bytesPerFrame` (2: 16-bit points, 4: Float).
    static func stored(_ zero: UnsafeMutableRawPointer, bytesPerFrame: Int) -> StoredFrames {
        bytesPerFrame == 2 ? .pcm16(UnsafePointer(zero.assumingMemoryBound(to: Int16.self))) : .float(UnsafePointer(zero.assumingMemoryBound(to: Float.self)))
    }
}

extension PlaybackLevel {
    /// A plain form's one level: `left` and `right` (the same for mono) read as they are stored.
    init(plain left: StoredFrames, _ right: StoredFrames) {
        let isInt16 = left.isPCM16, scale = isInt16 ? StoredFrames.pcm16Scale : 1
        self.init(left: left.raw, right: right.raw, oversampling: 1, isInt16: isInt16, scale: scale, rightScale: scale)
    }
}
