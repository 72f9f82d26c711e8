#if canImport(Glibc)
import Glibc
#endif
import DSP

/// The mixer's input channels, in the order of the original app's mixer plus the sampler.
public enum BusID: Int, CaseIterable, Sendable {
    case guitar, beat, mic, synth, sampler, file

    public var name: String {
        switch self {
        case .guitar: "guitar"
        case .beat: "beat"
        case .mic: "mic"
        case .synth: "synth"
        case .sampler: "sampler"
        case .file: "file"
        }
    }
}

/// One mixer channel: its own buffer that a source renders into, and a smoothed gain (with mute
/// folded in) and pan. Pan is a balance law with unity at centre (min(1, √2·cos θ) / min(1, √2·sin θ)),
/// so centring never changes a source's level, and mono sources on both channels pan as expected.
struct MixerBus {
    /// Owns the storage; the render path reads it through `whole` (a plain view: touching the
    /// class would retain and release it).
    let buffer: StereoBuffer
    private let whole: StereoBlock
    private var leftGain: LinearSmoother
    private var rightGain: LinearSmoother
    /// Set when a source wrote into the buffer this block.
    var isActive = false

    init(sampleRate: Double, maxFrames: Int) {
        buffer = StereoBuffer(capacity: maxFrames)
        whole = buffer.block(frames: maxFrames)
        leftGain = LinearSmoother(value: 1, sampleRate: sampleRate)
        rightGain = LinearSmoother(value: 1, sampleRate: sampleRate)
    }

    @_noLocks
    mutating func set(gainDecibels: Double, muted: Bool, pan: Double, snap: Bool) {
        let g = muted ? 0 : Decibels.gain(gainDecibels)
        let angle = (min(max(pan, -1), 1) + 1) * Double.pi / 4
        let root2 = RealTimeMath.sqrt(2.0)
        leftGain.setTarget(Float(g * min(1, root2 * RealTimeMath.cos(angle))))
        rightGain.setTarget(Float(g * min(1, root2 * RealTimeMath.sin(angle))))
        if snap {
            leftGain.snap(to: leftGain.target)
            rightGain.snap(to: rightGain.target)
        }
    }

    /// Adds the bus, gained and panned, into `out`.
    @_noLocks
    mutating func mix(into out: StereoBlock) {
        let l = whole.left, r = whole.right
        if !leftGain.isRamping, !rightGain.isRamping {
            let gl = leftGain.current, gr = rightGain.current
            if gl == 0, gr == 0 { return }
            for i in 0..<out.frames {
                out.left[i] += gl * l[i]
                out.right[i] += gr * r[i]
            }
            return
        }
        for i in 0..<out.frames {
            out.left[i] += leftGain.next() * l[i]
            out.right[i] += rightGain.next() * r[i]
        }
    }
}
