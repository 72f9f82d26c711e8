#if canImport(Glibc)
import Glibc
#endif
import DSP

/// A sine that glides to a frequency and level set from outside each block: the synth's pitch
/// follower. Frequency glides in the log domain (~30 ms) so detector jitter never becomes a
/// zipper; level ramps linearly, so starting and stopping never click.
struct PitchFollowerVoice {
    private var phase: Double = 0
    private var logFrequency: Double = log2(220)
    private var targetLogFrequency: Double = log2(220)
    private var level: LinearSmoother
    private let glide: Double
    private let sampleRate: Double

    init(sampleRate: Double) {
        self.sampleRate = sampleRate
        level = LinearSmoother(value: 0, sampleRate: sampleRate, rampSeconds: 0.02)
        glide = 1 - exp(-1 / (0.03 * sampleRate))
    }

    var isSilent: Bool { level.current == 0 && !level.isRamping }

    mutating func setTarget(frequencyHz: Double, level newLevel: Float) {
        if frequencyHz > 20 && frequencyHz < 8000 {
            let target = RealTimeMath.log2(frequencyHz)
            // Start a silent voice right at the new pitch instead of gliding up from the old one.
            if isSilent { logFrequency = target }
            targetLogFrequency = target
        }
        level.setTarget(max(0, min(newLevel, 1)))
    }

    mutating func render(into out: UnsafeMutablePointer<Float>, frames: Int) {
        guard !isSilent else { return }
        for i in 0..<frames {
            logFrequency += glide * (targetLogFrequency - logFrequency)
            out[i] += level.next() * RealTimeMath.sin(Float(2 * Double.pi * phase))
            phase += RealTimeMath.exp2(logFrequency) / sampleRate
            if phase >= 1 { phase -= 1 }
        }
    }

    mutating func reset() {
        level.snap(to: 0)
        phase = 0
    }
}
