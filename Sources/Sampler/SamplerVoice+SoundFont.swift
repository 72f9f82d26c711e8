import DSP

/// The chunk of a SoundFont voice: the same reading (band-limited levels, loops) as every voice,
/// with FluidSynth 2.3's control model (`SF2Voice`) setting its pitch, filter, level, pan and
/// sends. Render thread.
extension SamplerVoice {
    /// Renders `output.frames` (≤ the chunk size) and ADDS them to `output`, and the voice's
    /// sends to the part's send sums; clears `isActive` when the voice has ended.
    mutating func renderSoundFont(into output: StereoBlock, context: UnsafePointer<VoiceRenderContext>) {
        let chunk = context.pointee.chunk
        if sf.releasePending && sf.elapsedFrames >= context.pointee.soundFont.minimumNoteFrames { releaseSoundFont(minimumFrames: 0) }
        if sf.epoch != chunk.pointee.soundFont.modulationEpoch {
            sf.modulate(
                sources: chunk.pointee.soundFont.sources(key: key, velocity: sf.velocity, controllers: chunk.pointee.controllerValues),
                sampleRate: context.pointee.outputSampleRate, epoch: chunk.pointee.soundFont.modulationEpoch,
                scratch: context.pointee.soundFont.generatorScratch)
        }
        let silent = sf.advance(frames: output.frames)
        guard let region, !sf.volume.isFinished else { isActive = false; return }
        let frames = output.frames - silent
        guard frames > 0 else { return }  // still in the delay: silent, the sample waits (FluidSynth 2.3)
        let block = output.slice(from: silent, count: frames)
        let increment = soundFontIncrement(tuningCents: chunk.pointee.tuningCents)
        let reachedEnd = readChunk(region, frames: frames, increment: increment, context: context)
        if sf.filterActive {
            let cents = sf.cutoffCents
            if cents != sf.evaluatedCutoffCents {
                sf.evaluatedCutoffCents = cents
                let hertz = sf.cutoffHertz(cents: cents, sampleRate: context.pointee.outputSampleRate)
                if abs(hertz - sf.designedHertz) > 0.01 {
                    sf.designedHertz = hertz
                    sf.filter.design(cutoffHz: hertz, q: sf.q, sampleRate: context.pointee.outputSampleRate)
                    if region.isStereo { sf.rightFilter.design(cutoffHz: hertz, q: sf.q, sampleRate: context.pointee.outputSampleRate) }
                }
            }
            sf.filter.process(context.pointee.scratchLeft, count: frames)
            if region.isStereo { sf.rightFilter.process(context.pointee.scratchRight, count: frames) }
            let scratch = StereoBlock(left: context.pointee.scratchLeft, right: region.isStereo ? context.pointee.scratchRight : context.pointee.scratchLeft, frames: frames)
            if VoiceGuard.ranAway(scratch) { stopRunaway(); return }  // stopped, nothing mixed
        }
        let amplitude = sf.amplitude() * sf.fadeFactor(after: frames)
        let target = (left: Float(amplitude * sf.panGains.left), right: Float(amplitude * sf.panGains.right))
        mixSoundFont(into: block, offset: silent, stereo: region.isStereo, to: target, context: context)
        if reachedEnd || sf.isFadedOut { isActive = false }
    }

    /// Key released (pedals already considered by the caller): both envelopes release; a
    /// loop-until-release zone leaves its loop and plays on to the sample's end.
    mutating func releaseSoundFont(minimumFrames: Int) {
        sf.release(minimumFrames: minimumFrames)
        guard !sf.releasePending, let looped = region, looped.isLooped, let unlooped = regionAfterRelease else { return }
        // The looped form reads on past the loop end before it wraps: bring the phase back into the loop.
        var frame = Int(truncatingIfNeeded: phase >> 32)
        if frame >= looped.endFrame { frame -= (frame - looped.loopStartFrame) / looped.loopLength * looped.loopLength }
        phase = UInt64(max(frame, 0)) << 32 | (phase & 0xFFFF_FFFF)
        // The looped form is read no more: its hold ends, the unlooped one's goes on.
        hold?.release()
        hold = holdAfterRelease
        holdAfterRelease = nil
        region = unlooped
        regionAfterRelease = nil
        plainRegion = nil
    }

    /// 32.32 step from the voice's pitch relative to its root, at the sample's rate (exp2 only
    /// when the whole cents moved: a held note reuses its step).
    private mutating func soundFontIncrement(tuningCents: Double) -> UInt64 {
        let cents = sf.pitchCents(tuningCents: tuningCents)
        guard cents != lastCents else { return lastIncrement }
        lastCents = cents
        let wanted = sourceRateRatio * RealTimeMath.exp2(cents / 1200)
        let ratio = wanted.isNaN ? 1 : min(max(wanted, 1.0 / 65_536), 65_536)  // UInt64(NaN) would trap
        lastIncrement = UInt64(ratio * 4_294_967_296)
        return lastIncrement
    }

    /// Adds the interpolated chunk × gains ramping linearly from the previous chunk's to
    /// `target` (FluidSynth ramps its amplitude across each block the same way), and × the
    /// voice's sends into the part's send sums (from frame `offset` of the chunk).
    private mutating func mixSoundFont(
        into output: StereoBlock, offset: Int, stereo: Bool, to target: (left: Float, right: Float), context: UnsafePointer<VoiceRenderContext>
    ) {
        let start = sf.lastGains
        sf.lastGains = target
        Self.addRamped(context, stereo: stereo, into: output.left, output.right, frames: output.frames, from: start, to: target)
        guard context.pointee.chunk.pointee.hasSends else { return }
        let channel = context.pointee.soundFont
        if sf.reverbSend > 0 {
            Self.addSend(sf.reverbSend, into: channel.reverb, offset: offset, frames: output.frames, stereo: stereo, from: start, to: target, context)
        }
        if sf.chorusSend > 0 {
            Self.addSend(sf.chorusSend, into: channel.chorus, offset: offset, frames: output.frames, stereo: stereo, from: start, to: target, context)
        }
    }

    /// One send: the voice's output × `send` (FluidSynth's 0…1 scaled by `SF2Units.sendScale`).
    private static func addSend(
        _ send: Double, into bus: StereoBlock, offset: Int, frames: Int, stereo: Bool, from start: (left: Float, right: Float),
        to end: (left: Float, right: Float), _ context: UnsafePointer<VoiceRenderContext>
    ) {
        let level = Float(min(1, send * SF2Units.sendScale))
        addRamped(
            context, stereo: stereo, into: bus.left + offset, bus.right + offset, frames: frames,
            from: (start.left * level, start.right * level), to: (end.left * level, end.right * level))
        context.pointee.soundFont.sent.pointee = true
    }

    /// `left`/`right` += the scratch chunk × gains ramping from `start` to `end` over `frames`.
    /// Specialised for what most chunks are: a mono sample (its one channel read once) and, for a
    /// held note, gains that did not move (no ramp: the same products as the ramp's `start + 0`).
    private static func addRamped(
        _ context: UnsafePointer<VoiceRenderContext>, stereo: Bool, into left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>,
        frames: Int, from start: (left: Float, right: Float), to end: (left: Float, right: Float)
    ) {
        let sourceLeft = context.pointee.scratchLeft
        if stereo {
            addRamped(sourceLeft, context.pointee.scratchRight, context.pointee.ramp, into: left, right, frames: frames, from: start, to: end)
        } else if start == end {
            for i in 0..<frames {
                let sample = sourceLeft[i]
                left[i] += sample * start.left
                right[i] += sample * start.right
            }
        } else {
            let ramp = context.pointee.ramp
            let scale = 1 / Float(frames)
            let stepLeft = (end.left - start.left) * scale, stepRight = (end.right - start.right) * scale
            for i in 0..<frames {
                let sample = sourceLeft[i], position = ramp[i]
                left[i] += sample * (start.left + stepLeft * position)
                right[i] += sample * (start.right + stepRight * position)
            }
        }
    }

    private static func addRamped(
        _ sourceLeft: UnsafePointer<Float>, _ sourceRight: UnsafePointer<Float>, _ ramp: UnsafePointer<Float>,
        into left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, frames: Int,
        from start: (left: Float, right: Float), to end: (left: Float, right: Float)
    ) {
        let scale = 1 / Float(frames)
        let stepLeft = (end.left - start.left) * scale, stepRight = (end.right - start.right) * scale
        for i in 0..<frames {
            left[i] += sourceLeft[i] * (start.left + stepLeft * ramp[i])
            right[i] += sourceRight[i] * (start.right + stepRight * ramp[i])
        }
    }
}
