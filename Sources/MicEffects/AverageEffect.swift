import DSP

/// Stereo moving average, 3–101 points. A new length is set on the idle pair of averagers, which
/// first takes over the active pair's input history (so its running sum is exact at once); a
/// 20 ms crossfade then moves the output over. Only while fading do both pairs run. Render-thread safe
/// after init.
final class AverageEffect {
    static var pointRange: ClosedRange<Int> { AveragePoints.minimum...AveragePoints.maximum }

    /// The four averagers; the render path uses the unretained pairs below.
    private let averagers: [MovingAverage]
    private let pairA: Pair
    private let pairB: Pair
    private var activeIsB = false
    private var targetPoints = 5
    private var fade: Crossfade
    private let fadingOut: StereoBuffer
    private let fadingBlock: StereoBlock

    private typealias Pair = (left: RenderRef<MovingAverage>, right: RenderRef<MovingAverage>)

    init(sampleRate: Double, maxFrames: Int) {
        averagers = (0..<4).map { _ in MovingAverage(points: 5) }
        pairA = (RenderRef(averagers[0]), RenderRef(averagers[1]))
        pairB = (RenderRef(averagers[2]), RenderRef(averagers[3]))
        fade = Crossfade(sampleRate: sampleRate, seconds: 0.020)
        fadingOut = StereoBuffer(capacity: maxFrames)
        fadingBlock = fadingOut.block(frames: maxFrames)
    }

    @_noAllocation
    func setPoints(_ points: Int) {
        targetPoints = min(max(points, AveragePoints.minimum), AveragePoints.maximum)
    }

    @_noAllocation
    func reset() {
        // No array literal here: reset runs on the render thread when the effect is switched on.
        let points = targetPoints
        restart(pairA.left, points)
        restart(pairA.right, points)
        restart(pairB.left, points)
        restart(pairB.right, points)
        fade.finish()
    }

    @_noAllocation
    private func restart(_ average: RenderRef<MovingAverage>, _ points: Int) {
        average {
            $0.reset()
            $0.setPoints(points)
        }
    }

    @_noAllocation
    func process(input: StereoBlock, output: StereoBlock) {
        var (active, idle) = activeIsB ? (pairB, pairA) : (pairA, pairB)
        let fading = fade.isActive, points = targetPoints, activePoints = active.left { $0.points }
        if !fading && activePoints != points {
            take(idle.left, over: active.left, points)
            take(idle.right, over: active.right, points)
            activeIsB.toggle()
            (active, idle) = (idle, active)
            fade.start()
        }
        let frames = input.frames
        active.left { $0.process(input.left, into: output.left, count: frames) }
        active.right { $0.process(input.right, into: output.right, count: frames) }
        guard fade.isActive else { return }
        let old = fadingBlock.slice(from: 0, count: frames)
        idle.left { $0.process(input.left, into: old.left, count: frames) }
        idle.right { $0.process(input.right, into: old.right, count: frames) }
        for i in 0..<frames {
            let g = fade.next()
            output.left[i] = old.left[i] + g * (output.left[i] - old.left[i])
            output.right[i] = old.right[i] + g * (output.right[i] - old.right[i])
        }
    }

    /// `idle` takes over `active`'s history at `points`.
    @_noAllocation
    private func take(_ idle: RenderRef<MovingAverage>, over active: RenderRef<MovingAverage>, _ points: Int) {
        let history = active { $0.historyState }
        idle {
            $0.copyHistory(history)
            $0.setPoints(points)
        }
    }
}

/// The average's length range, outside the class (a class's statics are initialised behind a lock).
enum AveragePoints {
    static let minimum = 3, maximum = 101
}
