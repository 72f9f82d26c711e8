import DSP

/// After the mixer: resonant low-pass, resonant high-pass (each switchable), master gain, the SysEx
/// master volume (`volume`, frame-exact), the peak
/// limiter (`master.limiter.*`: no sample above the ceiling, default −0.1 dBFS; transparent below it;
/// delays the output by `limiter.latencyFrames`) and the output meters. Keeps running after the input
/// falls silent until the filters have rung out.
final class MasterStage {
    var lowPass: SmoothedFilter
    var highPass: SmoothedFilter
    var gain: LinearSmoother
    var volume: MasterVolume
    /// Owns the limiter and the scratch buffer; the render path uses `limiterRef` and `scratchBlock`.
    let limiter: PeakLimiter
    private let limiterRef: RenderRef<PeakLimiter>
    var meters: (left: LevelMeter, right: LevelMeter)
    /// The limiter's deepest gain reduction in the last block, 0…1.
    private(set) var limiterReduction = 0.0
    let scratch: StereoBuffer
    private let scratchBlock: StereoBlock
    private let ringOutFrames: Int
    private var framesSinceInput = Int.max / 2

    init(sampleRate: Double, maxFrames: Int) {
        lowPass = SmoothedFilter(kind: .lowPass, sampleRate: sampleRate, cutoffHz: 20000, resonanceDecibels: 0, enabled: false)
        highPass = SmoothedFilter(kind: .highPass, sampleRate: sampleRate, cutoffHz: 20, resonanceDecibels: 0, enabled: false)
        gain = LinearSmoother(value: 1, sampleRate: sampleRate)
        volume = MasterVolume(sampleRate: sampleRate)
        limiter = PeakLimiter(sampleRate: sampleRate)
        meters = (LevelMeter(sampleRate: sampleRate), LevelMeter(sampleRate: sampleRate))
        scratch = StereoBuffer(capacity: maxFrames)
        scratchBlock = scratch.block(frames: maxFrames)
        limiterRef = RenderRef(limiter)
        // A 20 Hz resonant filter rings for well under half a second.
        ringOutFrames = Int(0.5 * sampleRate)
    }

    /// Render thread, after non-finite output: clears all the state a NaN could have reached, both
    /// filters and the limiter (its look-ahead line and gain would carry it into every later block).
    @_noAllocation
    func reset() {
        lowPass.reset()
        highPass.reset()
        limiterRef { $0.reset() }
    }

    /// `master.limiter.enabled` and `.ceiling`. Render thread.
    @_noAllocation
    func setLimiter(enabled: Bool, ceilingDecibels: Double) {
        limiterRef {
            $0.isEnabled = enabled
            $0.setCeiling(decibels: ceilingDecibels)
        }
    }

    /// True while the filters may still be ringing from earlier input.
    var isRinging: Bool { @_noAllocation get { framesSinceInput < ringOutFrames } }

    /// Processes `block` in place. `hadInput` says whether any bus contributed this block.
    @_noAllocation
    func process(_ block: StereoBlock, hadInput: Bool) {
        // Sound after a whole ring-out of silence: no release is left to hear, so unity at once.
        let ringing = isRinging
        if hadInput && !ringing { limiterRef { if $0.isLimiting { $0.reset() } } }
        if hadInput { framesSinceInput = 0 } else { framesSinceInput += block.frames }
        let stillRinging = isRinging
        if hadInput || stillRinging {
            let scratchBlock = scratchBlock.slice(from: 0, count: block.frames)
            highPass.process(block, scratch: scratchBlock)
            lowPass.process(block, scratch: scratchBlock)
            let ramping = gain.isRamping, current = gain.current
            if ramping || current != 1 {
                for i in 0..<block.frames {
                    let g = gain.next()
                    block.left[i] *= g
                    block.right[i] *= g
                }
            }
            if !volume.isUnity { volume.apply(to: block) }
            limiterRef { $0.process(block) }
            limiterReduction = limiterRef { $0.blockReduction }
        } else {
            volume.skip(frames: block.frames)
            limiterReduction = 0
        }
        meters.left.process(block.left, frames: block.frames)
        meters.right.process(block.right, frames: block.frames)
    }
}
