#if canImport(Glibc)
import Glibc
#endif
import DSP

/// The mixer's input channels, in the order of the original app's mixer plus the sampler.
public enum BusID: Int, CaseIterable, Sendable {
    case guitar, beat, mic, synth, sampler, file

    /// `allCases.count` as a constant (`allCases` is an array: the render path loops over this).
    static let count = 6

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
    /// The bus's buffer (`maxFrames`), owned by the engine: a plain view, so the bus is a trivial
    /// value the render path indexes without retaining anything.
    let whole: StereoBlock
    private var leftGain: LinearSmoother
    private var rightGain: LinearSmoother
    /// Set when a source wrote into the buffer this block.
    var isActive = false
    /// The buffer's level before the fader; `postFaderDecibels` applies the fader and pan.
    private var meters: (left: LevelMeter, right: LevelMeter)

    init(sampleRate: Double, buffer: StereoBuffer) {
        whole = buffer.block(frames: buffer.capacity)
        meters = (LevelMeter(sampleRate: sampleRate), LevelMeter(sampleRate: sampleRate))
        leftGain = LinearSmoother(value: 1, sampleRate: sampleRate)
        rightGain = LinearSmoother(value: 1, sampleRate: sampleRate)
    }

    @_noAllocation
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

    /// Block end: meters the buffer (or `frames` of silence when nothing wrote to it).
    @_noAllocation
    mutating func meter(frames: Int) {
        if isActive {
            meters.left.process(whole.left, frames: frames)
            meters.right.process(whole.right, frames: frames)
        } else {
            meters.left.processSilence(frames: frames)
            meters.right.processSilence(frames: frames)
        }
    }

    /// Peak and RMS after the fader and pan, dBFS, of the louder side.
    var postFaderDecibels: (peak: Double, rms: Double) {
        @_noAllocation get {
            let l = Double(leftGain.current), r = Double(rightGain.current)
            let peak = max(Double(meters.left.peak) * l, Double(meters.right.peak) * r)
            let rms = max(Double(meters.left.rms) * l, Double(meters.right.rms) * r)
            return (Decibels.fromGain(peak), Decibels.fromGain(rms))
        }
    }

    /// Adds the bus, gained and panned, into `out`.
    @_noAllocation
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
