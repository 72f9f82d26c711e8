#if canImport(Glibc)
import Glibc
#endif
import DSP

/// One voice of the sine synth: a phase accumulator in cycles (wrapping at 1, i.e. at 2π, so the
/// phase never grows with time and never jumps) times a DAHDSR envelope.
struct SineVoice {
    var envelope: Envelope
    var note: UInt8 = 0
    var channel: UInt8 = 0
    var amplitude: Float = 0
    var phase: Double = 0
    var isActive = false
    var isFading = false
    var isKeyDown = false
    /// Key up, held by the sustain or sostenuto pedal.
    var isSustained = false
    /// Held down when the sostenuto pedal was pressed.
    var isLatched = false
    var age: UInt64 = 0

    init(sampleRate: Double) {
        envelope = Envelope(sampleRate: sampleRate)
    }

    var level: Float { envelope.output * amplitude }

    mutating func start(note: UInt8, channel: UInt8, amplitude: Float, age: UInt64, settings: EnvelopeSettings) {
        self.note = note
        self.channel = channel
        self.amplitude = amplitude
        self.age = age
        isActive = true
        isFading = false
        isKeyDown = true
        isSustained = false
        isLatched = false
        phase = 0
        envelope.reset()
        envelope.configure(settings)
        envelope.noteOn()
    }

    mutating func release() {
        isKeyDown = false
        isSustained = false
        isLatched = false
        envelope.noteOff()
    }

    mutating func fadeOut(seconds: Double) {
        isFading = true
        isKeyDown = false
        isSustained = false
        isLatched = false
        envelope.fastRelease(seconds: seconds)
    }

    /// Adds `frames` samples of this voice into `out` (mono), advancing by `increment` cycles per frame.
    /// The sine comes from a complex rotator (z ← z·w, four multiplies a sample) re-anchored every
    /// block from the exact phase, so rounding never accumulates beyond one block.
    mutating func render(into out: UnsafeMutablePointer<Float>, frames: Int, increment: Double) {
        let delta = 2 * Double.pi * increment
        let (wr, wi) = (RealTimeMath.cos(delta), RealTimeMath.sin(delta))
        // Advance first, so a note's first sample is already non-zero: its onset frame is exact.
        var (zr, zi) = (RealTimeMath.cos(2 * Double.pi * phase + delta), RealTimeMath.sin(2 * Double.pi * phase + delta))
        let a = amplitude
        for i in 0..<frames {
            out[i] += a * envelope.next() * Float(zi)
            (zr, zi) = (zr * wr - zi * wi, zr * wi + zi * wr)
        }
        phase += Double(frames) * increment
        phase -= RealTimeMath.floor(phase)
        if envelope.isIdle { isActive = false }
    }
}
