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
    static let maximumFeedback = 0.95

    private let left: DelayLine
    private let right: DelayLine
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
        left = DelayLine(maximumAgeFrames: maximumFrames)
        right = DelayLine(maximumAgeFrames: maximumFrames)
        currentFrames = Int((0.25 * sampleRate).rounded())
        previousFrames = currentFrames
        targetFrames = currentFrames
        headFade = Crossfade(sampleRate: sampleRate, seconds: 0.020)
        feedback = LinearSmoother(value: 0.3, sampleRate: sampleRate, rampSeconds: 0.020)
        wetMix = LinearSmoother(value: 0.5, sampleRate: sampleRate, rampSeconds: 0.020)
        inputFade = Crossfade(sampleRate: sampleRate, seconds: 0.020)
    }

    /// Delay in seconds, clamped to one frame…2 s.
    func setDelaySeconds(_ seconds: Double) {
        let frames = seconds.isFinite ? Int((seconds * sampleRate).rounded()) : 1
        targetFrames = min(max(frames, 1), maximumFrames)
    }

    func setFeedback(_ amount: Double) {
        feedback.setTarget(Float(min(max(amount.isFinite ? amount : 0, 0), Self.maximumFeedback)))
    }

    func setMix(_ mix: Double) { wetMix.setTarget(Float(min(max(mix.isFinite ? mix : 0, 0), 1))) }

    /// Silences the echo (O(1)); the delay time jumps to its target.
    func reset() {
        left.reset()
        right.reset()
        currentFrames = targetFrames
        previousFrames = targetFrames
        headFade.finish()
        feedback.snap(to: feedback.target)
        wetMix.snap(to: wetMix.target)
        inputFade.start()
    }

    func process(input: StereoBlock, output: StereoBlock) {
        for i in 0..<input.frames {
            if !headFade.isActive && targetFrames != currentFrames {
                previousFrames = currentFrames
                currentFrames = targetFrames
                headFade.start()
            }
            var tapL = left.read(age: currentFrames - 1)
            var tapR = right.read(age: currentFrames - 1)
            if headFade.isActive {
                let g = headFade.next()
                tapL = g * tapL + (1 - g) * left.read(age: previousFrames - 1)
                tapR = g * tapR + (1 - g) * right.read(age: previousFrames - 1)
            }
            let fb = feedback.next(), m = wetMix.next()
            let xL = input.left[i], xR = input.right[i]
            let gIn = inputFade.next()
            left.write(gIn * xL + fb * tapL)
            right.write(gIn * xR + fb * tapR)
            output.left[i] = (1 - m) * xL + m * tapL
            output.right[i] = (1 - m) * xR + m * tapR
        }
    }
}
