import ALSAIO
import DSP

/// Where the ALSA push loop writes its periods: an ALSA PCM, or the clock-paced null device
/// (soak runs, machines without a sound card). A closed set, so the render thread's call is a
/// direct one the compiler checks (no existential, no generic).
public enum PlaybackDevice {
    case alsa(PCMDevice)
    case paced(PacedNullDevice)

    /// Underruns so far. Any thread.
    public var xrunCount: Int { renderSide.xrunCount }

    /// What was opened and negotiated, in one line for the log and `status`.
    public var description: String {
        switch self {
        case .alsa(let device): return device.configuration.description
        case .paced(let device): return "paced null device (clock_nanosleep), \(device.sampleRateHz) Hz, period \(device.periodFrames)"
        }
    }

    /// Lets go of the device now (after it was lost). Control thread, no transfer running.
    public func close() {
        if case .alsa(let device) = self { device.close() }
    }

    var renderSide: PlaybackRef {
        switch self {
        case .alsa(let device): return .alsa(RenderRef(device))
        case .paced(let device): return .paced(RenderRef(device))
        }
    }
}

/// Where the push loop reads the mic/line bus: an ALSA capture PCM, or audio played in a loop.
public enum CaptureSource {
    case alsa(PCMDevice)
    case looped(LoopedInput)

    var renderSide: CaptureRef {
        switch self {
        case .alsa(let device): return .alsa(RenderRef(device))
        case .looped(let input): return .looped(RenderRef(input))
        }
    }
}

/// A `PlaybackDevice` as the render thread calls it: unretained (the loop keeps the device).
enum PlaybackRef {
    case alsa(RenderRef<PCMDevice>)
    case paced(RenderRef<PacedNullDevice>)

    @_noAllocation
    func write(_ block: StereoBlock) -> PCMTransferStatus {
        let (left, right, frames) = (UnsafePointer(block.left), UnsafePointer(block.right), block.frames)
        switch self {
        case .alsa(let device): return device { $0.write(left: left, right: right, frames: frames) }
        case .paced(let device): return device { $0.write(left: left, right: right, frames: frames) }
        }
    }

    var xrunCount: Int {
        @_noAllocation get {
            switch self {
            case .alsa(let device): return device { $0.xrunCount }
            case .paced(let device): return device { $0.missedDeadlineCount }
            }
        }
    }
}

/// A `CaptureSource` as the render thread calls it: unretained (the loop keeps the source).
enum CaptureRef {
    case alsa(RenderRef<PCMDevice>)
    case looped(RenderRef<LoopedInput>)

    @_noAllocation
    func read(into block: StereoBlock) -> PCMTransferStatus {
        let (left, right, frames) = (block.left, block.right, block.frames)
        switch self {
        case .alsa(let device): return device { $0.read(left: left, right: right, frames: frames) }
        case .looped(let input): return input { $0.read(left: left, right: right, frames: frames) }
        }
    }
}

/// Audio served as endless input (`--input-file`, tests), never blocking: the output paces the loop.
///
/// `@unchecked Sendable`: the read position is used only by the thread that renders.
public final class LoopedInput: @unchecked Sendable {
    private let left: UnsafeMutablePointer<Float>
    private let right: UnsafeMutablePointer<Float>
    private let count: Int
    private var position = 0

    /// `right` nil: mono, both sides read `left`. Neither may be empty; `right` as long as `left`.
    public init(left: [Float], right: [Float]?) {
        precondition(!left.isEmpty && (right == nil || right?.count == left.count), "looped input: empty or uneven channels")
        count = left.count
        self.left = .allocate(capacity: count)
        self.left.initialize(from: left, count: count)
        self.right = .allocate(capacity: count)
        self.right.initialize(from: right ?? left, count: count)
    }

    deinit {
        left.deallocate()
        right.deallocate()
    }

    /// Render thread.
    @_noAllocation
    public func read(left l: UnsafeMutablePointer<Float>, right r: UnsafeMutablePointer<Float>, frames: Int) -> PCMTransferStatus {
        var position = self.position
        for i in 0..<frames {
            l[i] = left[position]
            r[i] = right[position]
            position += 1
            if position == count { position = 0 }
        }
        self.position = position
        return .complete
    }
}
