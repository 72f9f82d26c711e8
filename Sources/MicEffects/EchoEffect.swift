import DSP

/// Stereo echo: a 2 s delay line per channel with feedback and its own wet/dry mix.
///
/// The delay is read at whole-frame ages (an impulse at n comes back at exactly
/// n + round(seconds·fs)). A new delay time does not move the read head, which would sweep the
/// pitch and zipper: a second head starts at the new time and a 20 ms raised-cosine crossfade
/// moves the output over to it. Times that arrive during a crossfade wait for it to end, so a
/// continuous sweep becomes a chain of smooth crossfades. Render-thread safe after init.
final class EchoEffect {
    static let maximumSeconds = 2.0

    /// The two lines; the render path reads them through `left`/`right` (unretained).
    private let lines: (DelayLine, DelayLine)
    private let left: RenderRef<DelayLine>
    private let right: RenderRef<DelayLine>
    private let sampleRate: Double
    private let maximumFrames: Int
    private var currentFrames: Int
    private var previousFrames: Int
    private var targetFrames: Int
    private var headFade: Crossfade
    private var feedback: LinearSmoother
    private var wetMix: LinearSmoother
    /// Fades the input into the line after a reset, so echoes of a sound that was already
    /// playing when the effect was switched on start smoothly instead of with a step.
    private var inputFade: Crossfade

    init(sampleRate: Double) {
        self.sampleRate = sampleRate
        maximumFrames = Int((Self.maximumSeconds * sampleRate).rounded())
        lines = (DelayLine(maximumAgeFrames: maximumFrames), DelayLine(maximumAgeFrames: maximumFrames))
        left = RenderRef(lines.0)
        right = RenderRef(lines.1)
        currentFrames = Int((0.25 * sampleRate).rounded())
        previousFrames = currentFrames
        targetFrames = currentFrames
        headFade = Crossfade(sampleRate: sampleRate, seconds: 0.020)
        feedback = LinearSmoother(value: 0.3, sampleRate: sampleRate, rampSeconds: 0.020)
        wetMix = LinearSmoother(value: 0.5, sampleRate: sampleRate, rampSeconds: 0.020)
        inputFade = Crossfade(sampleRate: sampleRate, seconds: 0.020)
    }

    /// Delay in seconds, clamped to one frame…2 s.
    @_noAllocation
    func setDelaySeconds(_ seconds: Double) {
        let frames = seconds.isFinite ? Int(RealTimeMath.round(seconds * sampleRate)) : 1
        targetFrames = min(max(frames, 1), maximumFrames)
    }

    @_noAllocation
    func setFeedback(_ amount: Double) {
        feedback.setTarget(Float(min(max(amount.isFinite ? amount : 0, 0), EchoLimits.maximumFeedback)))
    }

    @_noAllocation
    func setMix(_ mix: Double) { wetMix.setTarget(Float(min(max(mix.isFinite ? mix : 0, 0), 1))) }

    /// Silences the echo (O(1)); the delay time jumps to its target.
    @_noAllocation
    func reset() {
        left { $0.reset() }
        right { $0.reset() }
        currentFrames = targetFrames
        previousFrames = targetFrames
        headFade.finish()
        feedback.snap(to: feedback.target)
        wetMix.snap(to: wetMix.target)
        inputFade.start()
    }

    @_noAllocation
    func process(input: StereoBlock, output: StereoBlock) {
        let left = left, right = right
        for i in 0..<input.frames {
            let fading = headFade.isActive, target = targetFrames, current = currentFrames
            if !fading && target != current {
                previousFrames = current
                currentFrames = target
                headFade.start()
            }
            let age = currentFrames - 1
            var tapL = left { $0.read(age: age) }
            var tapR = right { $0.read(age: age) }
            if headFade.isActive {
                let g = headFade.next(), previousAge = previousFrames - 1
                tapL = g * tapL + (1 - g) * left { $0.read(age: previousAge) }
                tapR = g * tapR + (1 - g) * right { $0.read(age: previousAge) }
            }
            let fb = feedback.next(), m = wetMix.next()
            let xL = input.left[i], xR = input.right[i]
            let gIn = inputFade.next()
            let writeL = gIn * xL + fb * tapL, writeR = gIn * xR + fb * tapR
            left { $0.write(writeL) }
            right { $0.write(writeR) }
            output.left[i] = (1 - m) * xL + m * tapL
            output.right[i] = (1 - m) * xR + m * tapR
        }
    }
}

/// The echo's feedback ceiling, outside the class (a class's statics are initialised behind a lock).
enum EchoLimits {
    static let maximumFeedback = 0.95
}
