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
        into output: StereoBlock, stereo: Bool, controlGains: (left: Float, right: Float), context: UnsafePointer<VoiceRenderContext>
    ) {
        let frames = output.frames
        if startsFresh {
            startsFresh = false
            controlGainLeft = controlGains.left
            controlGainRight = controlGains.right
        }
        let left = context.pointee.scratchLeft
        let right = stereo ? context.pointee.scratchRight : context.pointee.scratchLeft
        let scale = 1 / Float(frames)
        if envelope.stage == .sustain {
            let settled = envelope.output
            if envelope.next() == settled {
                let startLeft = lastLevel * controlGainLeft, startRight = lastLevel * controlGainRight
                let endLeft = settled * controlGains.left, endRight = settled * controlGains.right
                if startLeft == endLeft && startRight == endRight {
                    // Held note, nothing moving: the common case, a plain multiply-add.
                    for i in 0..<frames {
                        output.left[i] += left[i] * endLeft
                        output.right[i] += right[i] * endRight
                    }
                } else {
                    let stepLeft = (endLeft - startLeft) * scale
                    let stepRight = (endRight - startRight) * scale
                    // Gains from a shared 1, 2, 3… table (no loop-carried sum), so the loop vectorizes.
                    let ramp = context.pointee.ramp
                    for i in 0..<frames {
                        output.left[i] += left[i] * (startLeft + stepLeft * ramp[i])
                        output.right[i] += right[i] * (startRight + stepRight * ramp[i])
                    }
                }
                finishChunk(level: settled, controlGains: controlGains)
                return
            }
            // Still converging: the step just taken is this chunk's first level.
            context.pointee.levels[0] = envelope.output
            envelope.render(into: context.pointee.levels + 1, frames: frames - 1)
        } else {
            envelope.render(into: context.pointee.levels, frames: frames)
        }
        let stepLeft = (controlGains.left - controlGainLeft) * scale
        let stepRight = (controlGains.right - controlGainRight) * scale
        let startLeft = controlGainLeft, startRight = controlGainRight
        let levels = context.pointee.levels
        let ramp = context.pointee.ramp
        for i in 0..<frames {
            let level = levels[i]
            output.left[i] += left[i] * ((startLeft + stepLeft * ramp[i]) * level)
            output.right[i] += right[i] * ((startRight + stepRight * ramp[i]) * level)
        }
        finishChunk(level: envelope.output, controlGains: controlGains)
    }

    private mutating func finishChunk(level: Float, controlGains: (left: Float, right: Float)) {
        lastLevel = level
        controlGainLeft = controlGains.left
        controlGainRight = controlGains.right
    }
}
