import DSP

/// Stereo moving average, 3–101 points. A new length is set on the idle pair of averagers, which
/// first takes over the active pair's input history (so its running sum is exact at once); a
/// 20 ms crossfade then moves the output over. Only while fading do both pairs run. Render-thread safe
/// after init.
final class AverageEffect {
    static let pointRange = 3...101

    private let pairA = (left: MovingAverage(points: 5), right: MovingAverage(points: 5))
    private let pairB = (left: MovingAverage(points: 5), right: MovingAverage(points: 5))
    private var activeIsB = false
    private var targetPoints = 5
    private var fade: Crossfade
    private let fadingOut: StereoBuffer

    init(sampleRate: Double, maxFrames: Int) {
        fade = Crossfade(sampleRate: sampleRate, seconds: 0.020)
        fadingOut = StereoBuffer(capacity: maxFrames)
    }

    func setPoints(_ points: Int) {
        targetPoints = min(max(points, Self.pointRange.lowerBound), Self.pointRange.upperBound)
    }

    func reset() {
        // No array literal here: reset runs on the render thread when the effect is switched on.
        restart(pairA.left)
        restart(pairA.right)
        restart(pairB.left)
        restart(pairB.right)
        fade.finish()
    }

    private func restart(_ average: MovingAverage) {
        average.reset()
        average.setPoints(targetPoints)
    }

    func process(input: StereoBlock, output: StereoBlock) {
        var (active, idle) = activeIsB ? (pairB, pairA) : (pairA, pairB)
        if !fade.isActive && active.left.points != targetPoints {
            idle.left.copyHistory(from: active.left)
            idle.right.copyHistory(from: active.right)
            idle.left.setPoints(targetPoints)
            idle.right.setPoints(targetPoints)
            activeIsB.toggle()
            (active, idle) = (idle, active)
            fade.start()
        }
        let frames = input.frames
        active.left.process(input.left, into: output.left, count: frames)
        active.right.process(input.right, into: output.right, count: frames)
        guard fade.isActive else { return }
        let old = fadingOut.block(frames: frames)
        idle.left.process(input.left, into: old.left, count: frames)
        idle.right.process(input.right, into: old.right, count: frames)
        for i in 0..<frames {
            let g = fade.next()
            output.left[i] = old.left[i] + g * (output.left[i] - old.left[i])
            output.right[i] = old.right[i] + g * (output.right[i] - old.right[i])
        }
    }
}
