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
