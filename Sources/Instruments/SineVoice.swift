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
    /// 1 while the pitch is below Nyquist, 0 above (an alias is all that could sound there);
    /// moves between them over `gateFrames`. Negative until the first block sets it outright.
    var gate: Float = -1
    static let gateFrames: Float = 64

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
        gate = -1
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
    /// block from the exact phase, so rounding never accumulates beyond one block. At or above
    /// half a cycle per frame (Nyquist) the voice fades to silence (`gate`), decided per block.
    mutating func render(into out: UnsafeMutablePointer<Float>, frames: Int, increment: Double) {
        let audible: Float = increment < 0.5 ? 1 : 0
        if gate < 0 { gate = audible }
        if gate != audible {
            renderGated(into: out, frames: frames, increment: increment, target: audible)
            return
        }
        if audible == 0 {
            advanceSilently(frames: frames, increment: increment)
            return
        }
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

    /// A block in which the Nyquist gate moves: the sine with a per-frame gain ramp.
    private mutating func renderGated(into out: UnsafeMutablePointer<Float>, frames: Int, increment: Double, target: Float) {
        let step = (target > gate ? 1 : -1) / Self.gateFrames
        for i in 0..<frames {
            phase += increment
            gate = target > gate ? min(target, gate + step) : max(target, gate + step)
            out[i] += amplitude * gate * envelope.next() * Float(RealTimeMath.sin(2 * Double.pi * phase))
        }
        phase -= RealTimeMath.floor(phase)
        if envelope.isIdle { isActive = false }
    }

    /// A block above Nyquist: nothing is heard, the phase and envelope move on.
    private mutating func advanceSilently(frames: Int, increment: Double) {
        for _ in 0..<frames { _ = envelope.next() }
        phase += Double(frames) * increment
        phase -= RealTimeMath.floor(phase)
        if envelope.isIdle { isActive = false }
    }
}
