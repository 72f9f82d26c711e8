import DSP

/// Stereo moving average, 3–101 points. Two averagers per channel see the same input all the
/// time; a new length is set on the idle pair (its running sum is recomputed from its history,
/// so it is exact at once) and a 20 ms crossfade moves the output over. RT-safe after init.
final class AverageEffect {
    static let pointRange = 3...101

    private let averagers: [MovingAverage]  // [left A, right A, left B, right B]
    private var activeIsB = false
    private var targetPoints: Int
    private var fade: Crossfade

    init(sampleRate: Double) {
        targetPoints = 5
        averagers = (0..<4).map { _ in MovingAverage(points: 5) }
        fade = Crossfade(sampleRate: sampleRate, seconds: 0.020)
    }

    func setPoints(_ points: Int) {
        targetPoints = min(max(points, Self.pointRange.lowerBound), Self.pointRange.upperBound)
    }

    func reset() {
        for a in averagers {
            a.reset()
            a.setPoints(targetPoints)
        }
        fade.finish()
    }

    func process(input: StereoBlock, output: StereoBlock) {
        let (newL, newR) = activeIsB ? (averagers[2], averagers[3]) : (averagers[0], averagers[1])
        let (oldL, oldR) = activeIsB ? (averagers[0], averagers[1]) : (averagers[2], averagers[3])
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
