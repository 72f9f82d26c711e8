import DSP

extension SamplerVoice {
    /// Adds the interpolated chunk (in the context's scratch buffers) to `output`.
    ///
    /// Controller, zone and pan gains ramp linearly from the previous chunk's values to
    /// `controlGains`, so controller moves never step. The envelope is applied per frame while it
    /// moves (attack, decay, release, steal fades: its 0.25 ms corner smoothing survives, so no
    /// fade start clicks) and as a per-chunk ramp once the sustain has settled, which is the cheap
    /// path almost every held voice takes.
    mutating func mix(
        into output: StereoBlock, stereo: Bool, controlGains: (left: Float, right: Float), context: VoiceRenderContext
    ) {
        let frames = output.frames
        if startsFresh {
            startsFresh = false
            controlGainLeft = controlGains.left
            controlGainRight = controlGains.right
        }
        let left = context.scratchLeft
        let right = stereo ? context.scratchRight : context.scratchLeft
        let scale = 1 / Float(frames)
        if envelope.stage == .sustain {
            let settled = envelope.output
            if envelope.next() == settled {
                let startLeft = lastLevel * controlGainLeft, startRight = lastLevel * controlGainRight
                let stepLeft = (settled * controlGains.left - startLeft) * scale
                let stepRight = (settled * controlGains.right - startRight) * scale
                var gl = startLeft, gr = startRight
                for i in 0..<frames {
                    gl += stepLeft
                    gr += stepRight
                    output.left[i] += left[i] * gl
                    output.right[i] += right[i] * gr
                }
                finishChunk(level: settled, controlGains: controlGains)
                return
            }
            // Still converging: the step just taken is this chunk's first level.
            context.levels[0] = envelope.output
            envelope.render(into: context.levels + 1, frames: frames - 1)
        } else {
            envelope.render(into: context.levels, frames: frames)
        }
        let stepLeft = (controlGains.left - controlGainLeft) * scale
        let stepRight = (controlGains.right - controlGainRight) * scale
        var gl = controlGainLeft, gr = controlGainRight
        let levels = context.levels
        for i in 0..<frames {
            gl += stepLeft
            gr += stepRight
            let level = levels[i]
            output.left[i] += left[i] * (gl * level)
            output.right[i] += right[i] * (gr * level)
        }
        finishChunk(level: envelope.output, controlGains: controlGains)
    }

    private mutating func finishChunk(level: Float, controlGains: (left: Float, right: Float)) {
        lastLevel = level
        controlGainLeft = controlGains.left
        controlGainRight = controlGains.right
    }
}
