import DSP

/// Stereo moving average, 3–101 points. Two averagers per channel see the same input all the
/// time; a new length is set on the idle pair (its running sum is recomputed from its history,
/// so it is exact at once) and a 20 ms crossfade moves the output over. RT-safe after init.
final class AverageEffect {
    static let pointRange = 3...101

    private let pairA = (left: MovingAverage(points: 5), right: MovingAverage(points: 5))
    private let pairB = (left: MovingAverage(points: 5), right: MovingAverage(points: 5))
    private var activeIsB = false
    private var targetPoints: Int
    private var fade: Crossfade

    init(sampleRate: Double) {
        targetPoints = 5
        fade = Crossfade(sampleRate: sampleRate, seconds: 0.020)
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
        let (newL, newR) = activeIsB ? pairB : pairA
        let (oldL, oldR) = activeIsB ? pairA : pairB
        if !fade.isActive && newL.points != targetPoints {
            // Swap roles: the idle pair takes the new length and fades in.
            oldL.setPoints(targetPoints)
            oldR.setPoints(targetPoints)
            activeIsB.toggle()
            fade.start()
            process(input: input, output: output)
            return
        }
        for i in 0..<input.frames {
            let l = newL.process(input.left[i]), r = newR.process(input.right[i])
            let ol = oldL.process(input.left[i]), or = oldR.process(input.right[i])
            let g = fade.next()
            output.left[i] = ol + g * (l - ol)
            output.right[i] = or + g * (r - or)
        }
    }
}
