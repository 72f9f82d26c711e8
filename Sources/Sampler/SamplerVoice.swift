import DSP

#if canImport(Glibc)
import Glibc
#endif

/// What a worker's voices read while rendering one chunk: its scratch memory, the shared tables,
/// and the values of the part whose group it renders (`chunk`). Each worker keeps one; per group
/// and chunk only `chunk` and the group's send sums change. Plain pointers and numbers.
struct VoiceRenderContext {
    var scratchLeft: UnsafeMutablePointer<Float>
    var scratchRight: UnsafeMutablePointer<Float>
    /// Zeros, filtered in place of the missing right channel of a mono voice.
    var filterDiscard: UnsafeMutablePointer<Float>
    /// Per-frame envelope levels while the envelope moves.
    var levels: UnsafeMutablePointer<Float>
    /// 1, 2, 3, … chunkFrames: per-frame ramp positions shared by every voice.
    var ramp: UnsafePointer<Float>
    var hermite: UnsafePointer<SIMD4<Float>>
    var offline: ResamplingKernel
    /// The largest step each band-limited level serves.
    var levelSteps: UnsafePointer<Double>
    var outputSampleRate: Double
    /// The part's values for this chunk, read in place (every worker rendering one of the part's
    /// groups points at the same ones).
    var chunk: UnsafePointer<PartChunk>
    /// What SoundFont voices use besides (`SamplerVoice+SoundFont`).
    var soundFont: SF2ChannelContext
}

/// A part's values for one chunk of a span: written by `SamplerInstrument.prepareContext` before
/// the span's groups render, then only read. Plain numbers and pointers.
struct PartChunk {
    var quality: InterpolationQuality
    /// Pitch-bend position −1…1.
    var bend: Double
    /// The channel's RPN 0 bend range in cents, NaN when unset (the layer's range applies).
    var bendRangeOverrideCents: Double
    /// Master A4 and the channel's RPN 1/2 tuning, cents from A4 = 440 Hz.
    var tuningCents: Double
    /// Smoothed CC7 and CC11 gains and CC10 pan offset, at the end of this chunk.
    var volumeGain: Float
    var expressionGain: Float
    var controllerPan: Double
    /// Whether those are still ramping, and where to (what a voice started mid-ramp plays at).
    var gainsRamping: Bool
    var volumeTarget: Float
    var expressionTarget: Float
    var panTarget: Double
    /// The last value of every controller 0…127.
    var controllerValues: UnsafePointer<UInt8>
    /// Whether the engine takes sends in this span (SoundFont voices add to their group's send
    /// sums only then).
    var hasSends: Bool
    /// What SoundFont modulators read besides.
    var soundFont: SF2ChannelState
}

/// How far a voice's LFO moves each destination at full swing (cents, cents, dB, pan positions).
struct LFODepths {
    var pitch = 0.0, cutoff = 0.0, gain = 0.0, pan = 0.0

    var isZero: Bool { pitch == 0 && cutoff == 0 && gain == 0 && pan == 0 }
}

/// One sounding zone: playback position, pitch, envelope, filter and gains. Lives in the
/// instrument's preallocated voice pool; started and rendered on the render thread.
struct SamplerVoice {
    var isActive = false
    var key = 0
    /// Incremented per note-on; the smallest active value is the oldest voice.
    var age: UInt64 = 0
    var isKeyDown = false
    var isHeldBySustain = false
    /// Fading out after a steal, re-strike, program swap or all-sound-off; not counted as polyphony.
    var isStolen = false
    var isOneShot = false
    /// MIDI channel 0–15 whose controllers the voice follows.
    var channel = 0
    /// The instrument's frame clock at note-on (new voices are protected from stealing).
    var startFrame: UInt64 = 0
    /// Latched by the sostenuto pedal: key up, still sounding until the pedal lifts.
    var isHeldBySostenuto = false
    /// Which bank's memory the region points into (its object address).
    var bankID = 0
    /// The note-on that started the voice (voices of one note-on share it: exclusive classes spare them).
    var noteID: UInt64 = 0

    var region: PlaybackRegion?
    /// The published form `region` is (counted there as a reader), nil for a region's own plain form.
    var hold: FormHold?
    var phase: UInt64 = 0
    var sourceRateRatio = 1.0
    var fixedCents = 0.0
    var bendRangeCents = 0.0
    /// The layer's LFO, run per voice and read once per chunk (`hasLFO` false: nothing of it
    /// runs). Its routing is flattened at note-on so a chunk reads plain numbers, not optionals:
    /// full-swing amounts for pitch (cents), cutoff (cents), level (dB) and pan, and the
    /// controller scaling each (−1 = none).
    var hasLFO = false
    var lfo: LowFrequencyOscillator
    var lfoAmounts = LFODepths()
    var lfoControllers: (pitch: Int, cutoff: Int, gain: Int, pan: Int) = (-1, -1, -1, -1)
    /// The LFO's output at the start of the coming chunk.
    var lfoValue: Float = 0
    /// Frames the LFO has not been stepped through yet (see `advanceLFO`).
    var lfoPendingFrames = 0
    var envelope: Envelope
    var staticGain: Float = 0
    var pan = 0.0
    var respondsToVolume = true
    var respondsToExpression = true
    var respondsToPan = true
    /// Controller × zone × pan gains (no envelope) reached at the end of the previous chunk, and
    /// the envelope level there; each chunk ramps linearly from them.
    var controlGainLeft: Float = 0
    var controlGainRight: Float = 0
    var lastLevel: Float = 0
    /// Caches: pitch and pan are recomputed only when they change. NaN forces the first computation.
    var lastCents = Double.nan
    var lastIncrement: UInt64 = 0
    var lastPanPosition = Double.nan
    var lastPanGains: (left: Float, right: Float) = (0, 0)
    /// Set at note-on: the first chunk starts at its control gains instead of ramping up from 0.
    var startsFresh = true
    /// Started while the part's gains were ramping: plays at their targets until the ramp ends.
    var followsTarget = false
    /// Frequency of the zone's root key (Hz): with the voice's cents, its fundamental, which
    /// silences it above the Nyquist frequency (`isAboveNyquist`, updated with the step).
    var rootHertz = 440.0
    var isAboveNyquist = false
    var filter: VoiceFilter
    /// A SoundFont zone's voice: `sf` drives pitch, level, filter and sends instead of the
    /// layer's envelope, LFO and filter (`SamplerVoice+SoundFont`); reading and mixing are shared.
    var isSoundFont = false
    var sf = SF2Voice()
    /// Voices this slot stopped because their output ran away (`VoiceGuard`), since start.
    var runaways = 0
    /// Sample mode 3: the unlooped region the voice continues in after its release, struck at
    /// note-on with the voice's region, and its hold (nil for a region's own plain form). A
    /// voice holds at most these two forms; at the release the first is let go and this one
    /// becomes `region`/`hold`.
    var regionAfterRelease: PlaybackRegion?
    var holdAfterRelease: FormHold?
    /// The program's own plain frames of the voice's region, read as they are where every kernel
    /// returns them (`readChunk`); nil for a deferred waveform, whose frames may be withdrawn.
    var plainRegion: PlaybackRegion?

    init(sampleRate: Double) {
        envelope = Envelope(sampleRate: sampleRate)
        filter = VoiceFilter(sampleRate: sampleRate)
        lfo = LowFrequencyOscillator(sampleRate: sampleRate)
    }

    /// Starts the layer's LFO for a new note (`seed` varies the random shapes between voices).
    mutating func startLFO(_ settings: SamplerLFO?, seed: UInt32) {
        guard let settings, !settings.isSilent else {
            hasLFO = false
            return
        }
        hasLFO = true
        lfoAmounts = LFODepths(
            pitch: settings.pitch?.amount ?? 0, cutoff: settings.cutoff?.amount ?? 0, gain: settings.gain?.amount ?? 0,
            pan: settings.pan?.amount ?? 0)
        lfoControllers = (
            settings.pitch?.controller ?? -1, settings.cutoff?.controller ?? -1, settings.gain?.controller ?? -1,
            settings.pan?.controller ?? -1)
        lfo = LowFrequencyOscillator(sampleRate: lfo.sampleRate, settings: settings.oscillator, seed: seed)
        lfoPendingFrames = 0
        lfoValue = lfo.current
    }

    /// Stops holding the published forms it counted itself a reader of (the voice has ended or is
    /// being replaced), so the loading side may free them once withdrawn: its region's and, for a
    /// sample-mode-3 voice not yet released, the region it would go on in.
    mutating func releaseRegion() {
        hold?.release()
        hold = nil
        holdAfterRelease?.release()
        holdAfterRelease = nil
        regionAfterRelease = nil
        plainRegion = nil
    }

    /// Key released and no pedal holds it: the envelopes (and a SoundFont voice's loop) release.
    mutating func enterRelease(minimumFrames: Int) {
        if isSoundFont {
            releaseSoundFont(minimumFrames: minimumFrames)
        } else {
            envelope.noteOff()
            filter.noteOff()
        }
    }

    /// In (or committed to) its release.
    var isReleasing: Bool { isSoundFont ? sf.isReleasing : envelope.isReleasing }

    /// How loud the voice is now, for choosing what to steal (AUSampler voices: their envelope
    /// × zone gain, the measure stealing has always used; SoundFont voices: their channel gains).
    var loudness: Float { isSoundFont ? max(sf.lastGains.left, sf.lastGains.right) : envelope.output * staticGain }

    /// The level of a voice fading out, to pick the quietest (envelope only, for AUSampler voices).
    var fadingLevel: Float { isSoundFont ? max(sf.lastGains.left, sf.lastGains.right) : envelope.output }

    /// Fades out in `seconds` and stops counting toward polyphony.
    mutating func steal(fadeSeconds: Double) {
        isStolen = true
        isHeldBySustain = false
        isHeldBySostenuto = false
        if isSoundFont {
            sf.fade(seconds: fadeSeconds, sampleRate: filter.sampleRate)
        } else {
            envelope.fastRelease(seconds: fadeSeconds)
        }
    }

    /// Renders `frames` (≤ the chunk size) and ADDS them to `output`; clears `isActive` when the
    /// envelope or a one-shot sample has ended.
    mutating func render(into output: StereoBlock, context: UnsafePointer<VoiceRenderContext>) {
        if isSoundFont { return renderSoundFont(into: output, context: context) }
        guard let region else { isActive = false; return }
        let frames = output.frames
        // The LFO at this chunk's start and end: pitch takes the start, the other destinations
        // ramp to the end (cutoff in 8-frame steps, level and pan with the control gains).
        let lfoStart = lfoValue
        let depths = hasLFO ? advanceLFO(frames: frames, controllerValues: context.pointee.chunk.pointee.controllerValues) : LFODepths()
        let increment = phaseIncrement(context: context, lfoCents: depths.pitch * Double(lfoStart))
        let reachedEnd = readChunk(region, frames: frames, increment: increment, context: context)
        if filter.isEnabled {
            let right = region.isStereo ? context.pointee.scratchRight : context.pointee.filterDiscard
            // Keep the unused right-channel state fed with silence so it never grows.
            if !region.isStereo { right.update(repeating: 0, count: frames) }
            filter.process(
                StereoBlock(left: context.pointee.scratchLeft, right: right, frames: frames), controllerValues: context.pointee.chunk.pointee.controllerValues,
                lfoCents: (depths.cutoff * Double(lfoStart), depths.cutoff * Double(lfoValue)))
            if filter.ranAway { stopRunaway(); return }  // VoiceGuard: stopped, nothing mixed
        }
        if !context.pointee.chunk.pointee.gainsRamping { followsTarget = false }
        let following = followsTarget
        var gain = staticGain
        if respondsToVolume { gain *= following ? context.pointee.chunk.pointee.volumeTarget : context.pointee.chunk.pointee.volumeGain }
        if respondsToExpression { gain *= following ? context.pointee.chunk.pointee.expressionTarget : context.pointee.chunk.pointee.expressionGain }
        if depths.gain != 0 { gain *= Float(Decibels.gain(depths.gain * Double(lfoValue))) }
        // Above Nyquist the read can only alias: the voice fades to silence over this chunk (and
        // back when a bend brings it down), as FluidSynth's voices fall silent there.
        if isAboveNyquist { gain = 0 }
        let panGains = panGains(controllerPan: following ? context.pointee.chunk.pointee.panTarget : context.pointee.chunk.pointee.controllerPan, lfoPan: depths.pan * Double(lfoValue))
        let target = (left: gain * panGains.left, right: gain * panGains.right)
        mix(into: output, stereo: region.isStereo, controlGains: target, context: context)
        if reachedEnd || envelope.isIdle { isActive = false }
    }

    /// Moves the LFO on by `frames` and returns its full-swing pull on pitch, cutoff, level and
    /// pan now (each amount × its controller's value 0…1 where one scales it). While that pull is
    /// zero (a mod-wheel vibrato with the wheel down: the DLS default every preset gets) the LFO
    /// is neither evaluated nor stepped; the frames are counted and skipped in one go once it
    /// moves something again, so its phase runs on unbroken. Kept out of line: `render` stays
    /// small enough to inline the mix, and voices without an LFO never enter it.
    @inline(never)
    private mutating func advanceLFO(frames: Int, controllerValues: UnsafePointer<UInt8>) -> LFODepths {
        func scaled(_ amount: Double, by controller: Int) -> Double {
            controller < 0 ? amount : amount * Double(controllerValues[controller & 127]) / 127
        }
        let depths = LFODepths(
            pitch: scaled(lfoAmounts.pitch, by: lfoControllers.pitch), cutoff: scaled(lfoAmounts.cutoff, by: lfoControllers.cutoff),
            gain: scaled(lfoAmounts.gain, by: lfoControllers.gain), pan: scaled(lfoAmounts.pan, by: lfoControllers.pan))
        lfoPendingFrames += frames
        if depths.isZero {
            lfoValue = 0
        } else {
            lfo.skip(frames: lfoPendingFrames)
            lfoPendingFrames = 0
            lfoValue = lfo.current
        }
        return depths
    }

    /// 32.32 step for this chunk from the fixed tuning, pitch bend and the LFO; sets
    /// `isAboveNyquist` from the same cents.
    private mutating func phaseIncrement(context: UnsafePointer<VoiceRenderContext>, lfoCents: Double) -> UInt64 {
        let bendRange = context.pointee.chunk.pointee.bendRangeOverrideCents.isNaN ? bendRangeCents : context.pointee.chunk.pointee.bendRangeOverrideCents
        var cents = fixedCents + context.pointee.chunk.pointee.tuningCents + context.pointee.chunk.pointee.bend * bendRange
        cents += lfoCents
        // exp2 only when the pitch moved (bend, vibrato): a held note reuses its step.
        if cents != lastCents {
            lastCents = cents
            // Bounded so the 32.32 step never overflows; one-cycle tables (the built-in sine is
            // declared at 440 × 2048 Hz) legitimately step hundreds of frames per output frame.
            let wanted = sourceRateRatio * RealTimeMath.exp2(cents / 1200)
            let ratio = wanted.isNaN ? 1 : min(max(wanted, 1.0 / 65_536), 65_536)  // UInt64(NaN) would trap
            lastIncrement = UInt64(ratio * 4_294_967_296)
            isAboveNyquist = !(rootHertz * RealTimeMath.exp2(cents / 1200) < 0.5 * context.pointee.outputSampleRate)
        }
        return lastIncrement
    }

    /// Equal-power pan gains, recomputed only when the pan position moved.
    private mutating func panGains(controllerPan: Double, lfoPan: Double) -> (left: Float, right: Float) {
        let position = pan + (respondsToPan ? controllerPan : 0) + lfoPan
        if position != lastPanPosition {
            lastPanPosition = position
            let gains = PanLaw.gains(pan: position)
            lastPanGains = (Float(gains.left), Float(gains.right))
        }
        return lastPanGains
    }

    /// Reads the chunk into the scratch; returns whether the sample ended. While the voice steps
    /// one frame per output frame at a whole phase (the root key at the output's rate, the
    /// commonest case in General MIDI songs), every kernel returns the frames themselves: they are
    /// read as they are from `plainRegion`, at a fraction of the cost. Otherwise `region` with the
    /// quality's kernel; a plain region (its levels were not built at note-on) with the 4-point
    /// cubic to the end.
    mutating func readChunk(_ region: PlaybackRegion, frames: Int, increment: UInt64, context: UnsafePointer<VoiceRenderContext>) -> Bool {
        if let plain = plainRegion, increment == 1 << 32, UInt32(truncatingIfNeeded: phase) == 0, context.pointee.chunk.pointee.quality == .realtime {
            return read(plain, frames: frames, increment: increment, kernel: .copy, context: context)
        }
        let kernel = Kernel(quality: region.isPlain ? .cubic : context.pointee.chunk.pointee.quality, context: context)
        return read(region, frames: frames, increment: increment, kernel: kernel, context: context)
    }

    /// Interpolates `frames` into the scratch buffers from the level for this chunk's step, segment
    /// by segment: up to the end (unlooped) or the wrap point, then back one loop length. Returns
    /// true when a non-looped region ran out (the rest is silence).
    mutating func read(
        _ region: PlaybackRegion, frames: Int, increment: UInt64, kernel: Kernel, context: UnsafePointer<VoiceRenderContext>
    ) -> Bool {
        let level = region.levels[kernel.level(for: increment, steps: context.pointee.levelSteps)]
        var written = 0
        while written < frames {
            let frame = Int(truncatingIfNeeded: phase >> 32)
            var segmentEnd = region.endFrame
            if region.isLooped {
                if frame >= region.wrapFrame {
                    // Back by whole loop lengths into [wrapFrame − loopLength, wrapFrame).
                    let loops = (frame - region.wrapFrame) / region.loopLength + 1
                    phase = UInt64(frame - loops * region.loopLength) << 32 | (phase & 0xFFFF_FFFF)
                    continue
                }
                segmentEnd = region.wrapFrame
            } else if frame >= segmentEnd {
                context.pointee.scratchLeft.advanced(by: written).update(repeating: 0, count: frames - written)
                context.pointee.scratchRight.advanced(by: written).update(repeating: 0, count: frames - written)
                return true
            }
            let remaining = (UInt64(segmentEnd) << 32) &- phase
            let count = min(frames - written, Int(truncatingIfNeeded: (remaining &+ increment &- 1) / increment))
            // The same read in stored frames (r × the phase, exact: `RegionStorage` keeps r × frames < 2³¹).
            let r = UInt64(truncatingIfNeeded: level.oversampling)
            let storedPhase = phase &* r, storedIncrement = increment &* r
            let left = context.pointee.scratchLeft + written, right = context.pointee.scratchRight + written
            if level.isInt16 {
                Self.read(level, Int16.self, kernel: kernel, stereo: region.isStereo, into: left, right, count: count, phase: storedPhase, increment: storedIncrement)
            } else {
                Self.read(level, Float.self, kernel: kernel, stereo: region.isStereo, into: left, right, count: count, phase: storedPhase, increment: storedIncrement)
            }
            phase &+= UInt64(truncatingIfNeeded: count) &* increment
            written += count
        }
        return false
    }

    /// One segment of `level` with `kernel`, its frames stored as `Frame`.
    @inline(__always)
    static func read<Frame: StoredSample>(
        _ level: PlaybackLevel, _: Frame.Type, kernel: Kernel, stereo: Bool,
        into left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, count: Int, phase: UInt64, increment: UInt64
    ) {
        switch kernel {
        case .copy:
            ResamplingKernels.copy(level.left, Frame.self, scale: level.scale, into: left, count: count, phase: phase)
            if stereo { ResamplingKernels.copy(level.right, Frame.self, scale: level.rightScale, into: right, count: count, phase: phase) }
        case .cubicMOMS:
            if stereo {
                ResamplingKernels.cubicMOMSStereo(
                    level.left, level.right, Frame.self, scales: (level.scale, level.rightScale), into: left, right, count: count, phase: phase,
                    increment: increment)
            } else {
                ResamplingKernels.cubicMOMS(level.left, Frame.self, scale: level.scale, into: left, count: count, phase: phase, increment: increment)
            }
        case .offline(let resampling):
            if stereo {
                ResamplingKernels.bandLimitedStereo(
                    level.left, level.right, Frame.self, scales: (level.scale, level.rightScale), into: left, right, count: count, phase: phase,
                    increment: increment, kernel: resampling)
            } else {
                ResamplingKernels.bandLimited(
                    level.left, Frame.self, scale: level.scale, into: left, count: count, phase: phase, increment: increment, kernel: resampling)
            }
        case .hermite(let table):
            ResamplingKernels.hermite(level.left, Frame.self, scale: level.scale, into: left, count: count, phase: phase, increment: increment, table: table)
            if stereo {
                ResamplingKernels.hermite(level.right, Frame.self, scale: level.rightScale, into: right, count: count, phase: phase, increment: increment, table: table)
            }
        }
    }

    /// The kernel for this chunk, by quality: live and offline read band-limited levels, the
    /// legacy cubic (and every plain region) reads level 0.
    enum Kernel {
        /// The frames themselves: one frame per output frame at a whole phase (`plainRegion`).
        case copy
        case cubicMOMS
        case offline(ResamplingKernel)
        case hermite(UnsafePointer<SIMD4<Float>>)

        @inline(__always)
        init(quality: InterpolationQuality, context: UnsafePointer<VoiceRenderContext>) {
            switch quality {
            case .realtime: self = .cubicMOMS
            case .high: self = .offline(context.pointee.offline)
            case .cubic: self = .hermite(context.pointee.hermite)
            }
        }

        /// The first level whose largest step covers `increment` (the top one beyond); 0 for the cubic.
        @inline(__always)
        func level(for increment: UInt64, steps: UnsafePointer<Double>) -> Int {
            switch self {
            case .hermite, .copy: return 0
            case .cubicMOMS, .offline: break
            }
            let step = Double(increment) * 0x1p-32
            var level = 0
            while level < LevelLayout.count - 1 && step > steps[level] { level += 1 }
            return level
        }
    }
}
