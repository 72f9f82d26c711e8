import DSP

/// After the mixer: resonant low-pass, resonant high-pass (each switchable), master gain, the peak
/// limiter (`master.limiter.*`: no sample above the ceiling, default −0.1 dBFS; transparent below it;
/// delays the output by `limiter.latencyFrames`) and the output meters. Keeps running after the input
/// falls silent until the filters have rung out.
final class MasterStage {
    var lowPass: SmoothedFilter
    var highPass: SmoothedFilter
    var gain: LinearSmoother
    let limiter: PeakLimiter
    var meters: (left: LevelMeter, right: LevelMeter)
    let scratch: StereoBuffer
    private let ringOutFrames: Int
    private var framesSinceInput = Int.max / 2

    init(sampleRate: Double, maxFrames: Int) {
        lowPass = SmoothedFilter(kind: .lowPass, sampleRate: sampleRate, cutoffHz: 20000, resonanceDecibels: 0, enabled: false)
        highPass = SmoothedFilter(kind: .highPass, sampleRate: sampleRate, cutoffHz: 20, resonanceDecibels: 0, enabled: false)
        gain = LinearSmoother(value: 1, sampleRate: sampleRate)
        limiter = PeakLimiter(sampleRate: sampleRate)
        meters = (LevelMeter(sampleRate: sampleRate), LevelMeter(sampleRate: sampleRate))
        scratch = StereoBuffer(capacity: maxFrames)
        // A 20 Hz resonant filter rings for well under half a second.
        ringOutFrames = Int(0.5 * sampleRate)
    }

    /// Render thread, after non-finite output: clears all the state a NaN could have reached, both
    /// filters and the limiter (its look-ahead line and gain would carry it into every later block).
    func reset() {
        lowPass.reset()
        highPass.reset()
        limiter.reset()
    }

    /// True while the filters may still be ringing from earlier input.
    var isRinging: Bool { framesSinceInput < ringOutFrames }

    /// Processes `block` in place. `hadInput` says whether any bus contributed this block.
    func process(_ block: StereoBlock, hadInput: Bool) {
        // Sound after a whole ring-out of silence: no release is left to hear, so unity at once.
        if hadInput && !isRinging && limiter.isLimiting { limiter.reset() }
        if hadInput { framesSinceInput = 0 } else { framesSinceInput += block.frames }
        if hadInput || isRinging {
            let scratchBlock = scratch.block(frames: block.frames)
            highPass.process(block, scratch: scratchBlock)
            lowPass.process(block, scratch: scratchBlock)
            if gain.isRamping || gain.current != 1 {
                for i in 0..<block.frames {
                    let g = gain.next()
                    block.left[i] *= g
                    block.right[i] *= g
                }
            }
            limiter.process(block)
        }
        meters.left.process(block.left, frames: block.frames)
        meters.right.process(block.right, frames: block.frames)
    }
}
