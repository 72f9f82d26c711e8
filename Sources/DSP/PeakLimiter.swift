#if canImport(Glibc)
import Glibc
#endif

/// A transparent stereo peak limiter: no output sample exceeds the ceiling, and a signal that
/// stays under it passes unchanged (bit for bit, only delayed).
///
/// How: the audio is delayed by `latencyFrames` (1.5 ms look-ahead). For every incoming frame the
/// gain that would bring its louder channel to the ceiling is computed (stereo-linked: both channels
/// get the same gain, so the image does not move). The envelope is the minimum of those gains over
/// the look-ahead window, released back towards 1 with a one-pole of `releaseSeconds`, and then
/// smoothed by two cascaded moving averages that together span the window — so the gain is
/// already down when the peak leaves the delay (instant attack, no overshoot) and every change is a
/// smooth S-curve (no step). Gain reduction is tracked as an exact 0 while nothing is limited, so
/// the unity path does no arithmetic on the signal; a block with nothing to limit is only delayed
/// (callgrind: 38 instructions per frame that way, 215 while limiting).
///
/// Latency: `latencyFrames` = round(1.5 ms × sample rate) (72 frames at 48 kHz), whether the limiter is
/// enabled or not, so switching it never shifts the audio. Sample peaks are limited, not inter-sample
/// (true) peaks. Allocate on the control thread; `process` is render-thread safe (no allocation, no locks).
public final class PeakLimiter {
    public static let lookAheadSeconds = 0.0015
    public static let releaseSeconds = 0.1

    public let latencyFrames: Int
    /// Linear ceiling; set with `setCeiling(decibels:)`.
    public private(set) var ceiling: Double
    /// Off: the envelope releases to unity and the signal passes through the delay only.
    public var isEnabled = true
    /// The deepest gain reduction applied in the last block, 0…1 (1 − gain): for meters.
    public private(set) var blockReduction = 0.0

    private let delayLeft: UnsafeMutablePointer<Float>
    private let delayRight: UnsafeMutablePointer<Float>
    private var delayIndex = 0
    /// Sliding minimum of the required gains over the window: a monotonic deque in a ring.
    private var minimumWindow: SlidingMinimum
    /// The released envelope (≤ the windowed minimum).
    private var envelope = 1.0
    private let releaseCoefficient: Double
    private var firstAverage: ReductionAverage
    private var secondAverage: ReductionAverage
    /// Scale applied to the ceiling so Float rounding of the output never lands above it.
    private static let headroom = 1 - 1e-6

    public init(sampleRate: Double, ceilingDecibels: Double = -0.1) {
        latencyFrames = max(2, Int((Self.lookAheadSeconds * sampleRate).rounded()))
        ceiling = Decibels.gain(ceilingDecibels)
        delayLeft = .allocate(capacity: latencyFrames)
        delayRight = .allocate(capacity: latencyFrames)
        delayLeft.initialize(repeating: 0, count: latencyFrames)
        delayRight.initialize(repeating: 0, count: latencyFrames)
        // The window and both averages must cover exactly the frames between a sample's arrival
        // and its output: window = latency + 1, averages' lengths sum to latency + 2.
        minimumWindow = SlidingMinimum(length: latencyFrames + 1)
        firstAverage = ReductionAverage(length: (latencyFrames + 2) / 2)
        secondAverage = ReductionAverage(length: latencyFrames + 2 - (latencyFrames + 2) / 2)
        releaseCoefficient = 1 - exp(-1 / (Self.releaseSeconds * sampleRate))
    }

    deinit {
        delayLeft.deallocate()
        delayRight.deallocate()
        minimumWindow.deallocate()
        firstAverage.deallocate()
        secondAverage.deallocate()
    }

    /// Sets the ceiling (dBFS, at most 0). Takes effect for frames arriving from now on. Render-thread safe.
    @_noAllocation
    public func setCeiling(decibels: Double) { ceiling = Decibels.gain(min(decibels, 0)) }

    /// True while the gain is below unity (or still has reduction in its averaging windows).
    public var isLimiting: Bool {
        // Plain loads, no `||`: its autoclosure, not yet inlined when the performance
        // diagnostics run, would count as retaining `self`.
        @_noAllocation get {
            let averaging = firstAverage.nonZero + secondAverage.nonZero
            return envelope < 1 ? true : averaging != 0
        }
    }

    /// Limits `block` in place (its output is the input `latencyFrames` earlier). Render-thread safe.
    @_noAllocation
    public func process(_ block: StereoBlock) {
        let limit = ceiling * Self.headroom
        // At unity with nothing over the ceiling in this block, the envelope would stay at 1: just delay.
        var idle = !isLimiting ? minimumWindow.isUnity : false
        if idle, isEnabled { idle = Double(BlockPeak.of(block)) <= limit }
        if idle {
            blockReduction = 0
            delay(block)
            minimumWindow.skip(block.frames)
            return
        }
        // The state in locals for the loop: the class's own stored properties would each take a
        // dynamic exclusivity check per frame (~5 % of a SoundFont render's instructions).
        var window = minimumWindow, first = firstAverage, second = secondAverage
        var envelope = envelope, index = delayIndex, deepest = 0.0
        let enabled = isEnabled, release = releaseCoefficient, latency = latencyFrames
        let delayLeft = delayLeft, delayRight = delayRight
        for i in 0..<block.frames {
            let left = block.left[i], right = block.right[i]
            let peak = Double(max(abs(left), abs(right)))
            let required = enabled && peak > limit ? limit / peak : 1
            let held = window.push(required)
            if held < envelope {
                envelope = held
            } else if envelope < held {
                envelope += (held - envelope) * release
                // Within Float resolution of the target: land on it, so unity is exactly 1 again.
                if held - envelope < 1e-8 { envelope = held }
            }
            let reduction = second.push(first.push(1 - envelope))
            deepest = max(deepest, reduction)
            let outLeft = delayLeft[index], outRight = delayRight[index]
            delayLeft[index] = left
            delayRight[index] = right
            index = index + 1 == latency ? 0 : index + 1
            if reduction == 0 {
                block.left[i] = outLeft
                block.right[i] = outRight
            } else {
                let gain = 1 - reduction
                block.left[i] = Float(Double(outLeft) * gain)
                block.right[i] = Float(Double(outRight) * gain)
            }
        }
        minimumWindow = window
        firstAverage = first
        secondAverage = second
        self.envelope = envelope
        delayIndex = index
        blockReduction = deepest
    }

    /// The delay alone: each sample out is the one `latencyFrames` before it. The ring is swapped
    /// with the block in at most a few contiguous runs (up to the ring's end, then from its start),
    /// four frames at a time, rather than frame by frame with a wrap test each.
    private func delay(_ block: StereoBlock) {
        var index = delayIndex, done = 0
        while done < block.frames {
            let n = min(block.frames - done, latencyFrames - index)
            swapFloats(block.left + done, delayLeft + index, count: n)
            swapFloats(block.right + done, delayRight + index, count: n)
            done += n
            index += n
            if index == latencyFrames { index = 0 }
        }
        delayIndex = index
    }

    /// Clears the delay and the envelope (silence in, unity gain). Render-thread safe.
    @_noAllocation
    public func reset() {
        delayLeft.update(repeating: 0, count: latencyFrames)
        delayRight.update(repeating: 0, count: latencyFrames)
        minimumWindow.reset()
        firstAverage.reset()
        secondAverage.reset()
        envelope = 1
        blockReduction = 0
    }
}

/// The minimum of the last `length` values pushed, in O(1) amortised per push: a ring holding the
/// increasing run of candidates (older, larger values can never be the minimum again). A value
/// over storage its owner frees (`deallocate`): no class instance, so no reference counting per frame.
struct SlidingMinimum {
    private let length: Int
    private let values: UnsafeMutablePointer<Double>
    private let ages: UnsafeMutablePointer<Int>
    private var head = 0, count = 0, time = 0

    init(length: Int) {
        self.length = length
        values = .allocate(capacity: length)
        ages = .allocate(capacity: length)
        values.initialize(repeating: 1, count: length)
        ages.initialize(repeating: 0, count: length)
    }

    func deallocate() {
        values.deallocate()
        ages.deallocate()
    }

    /// Ring position `offset` entries after the head (offset < length).
    private func slot(_ offset: Int) -> Int {
        let position = head + offset
        return position >= length ? position - length : position
    }

    /// Adds `value` and returns the minimum over the window that ends with it.
    mutating func push(_ value: Double) -> Double {
        time &+= 1
        while count > 0 && values[slot(count - 1)] >= value { count -= 1 }
        if count > 0 && ages[head] <= time - length {
            head = slot(1)
            count -= 1
        }
        let slot = slot(count)
        values[slot] = value
        ages[slot] = time
        count += 1
        return values[head]
    }

    /// True when every gain in the window is 1 (nothing to limit in it).
    var isUnity: Bool { count == 0 || values[head] >= 1 }

    /// As if `frames` gains of 1 had been pushed.
    mutating func skip(_ frames: Int) {
        time &+= frames
        head = 0
        count = 1
        values[0] = 1
        ages[0] = time
    }

    mutating func reset() {
        head = 0
        count = 0
    }
}

/// A moving average of gain reductions that is exactly 0 whenever its window holds only zeros
/// (a count of non-zero entries resets the running sum), so unity gain stays bit-exact. A value
/// over storage its owner frees (`deallocate`).
struct ReductionAverage {
    private let length: Int
    private let scale: Double
    private let history: UnsafeMutablePointer<Double>
    private var index = 0
    private(set) var nonZero = 0
    private var sum = 0.0

    init(length: Int) {
        self.length = max(1, length)
        scale = 1 / Double(self.length)
        history = .allocate(capacity: self.length)
        history.initialize(repeating: 0, count: self.length)
    }

    func deallocate() { history.deallocate() }

    mutating func push(_ value: Double) -> Double {
        let leaving = history[index]
        if leaving != 0 { nonZero -= 1 }
        if value != 0 { nonZero += 1 }
        history[index] = value
        index = index + 1 == length ? 0 : index + 1
        if nonZero == 0 {
            sum = 0
            return 0
        }
        sum += value - leaving
        return max(0, sum * scale)
    }

    mutating func reset() {
        history.update(repeating: 0, count: length)
        index = 0
        nonZero = 0
        sum = 0
    }
}

/// Exchanges `count` floats of `a` and `b` (not overlapping), four at a time.
@_noAllocation
private func swapFloats(_ a: UnsafeMutablePointer<Float>, _ b: UnsafeMutablePointer<Float>, count: Int) {
    var i = 0
    while i &+ 4 <= count {
        let x = UnsafeMutableRawPointer(a + i), y = UnsafeMutableRawPointer(b + i)
        let t = x.loadUnaligned(as: SIMD4<Float>.self)
        x.storeBytes(of: y.loadUnaligned(as: SIMD4<Float>.self), as: SIMD4<Float>.self)
        y.storeBytes(of: t, as: SIMD4<Float>.self)
        i &+= 4
    }
    while i < count {
        let t = a[i]
        a[i] = b[i]
        b[i] = t
        i &+= 1
    }
}
