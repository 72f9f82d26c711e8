import DSP

/// One zone pair's articulation as the render thread reads it: plain pointers into memory the
/// program owns (`SF2ArticulationStorage`), valid while its bank lives.
struct SF2ZoneTables {
    /// `SF2Generator.count` values, before modulators.
    var generators: UnsafePointer<Double>
    var modulators: UnsafePointer<SF2Modulator>
    var modulatorCount: Int
    /// The sample header's original key and pitch correction (cents).
    var originalPitch: Int
    var pitchCorrection: Int
    /// Frame the voice starts at (the start address offsets applied).
    var startFrame: Int
    /// Sample mode 3: the loop plays while the key is held, then the sample plays on to its end.
    var loopsUntilRelease: Bool
    var exclusiveClass: Int
    /// The articulation's linear output gain (FluidSynth's `synth.gain`).
    var gain: Double
}

/// The SoundFont part of a sampler voice: FluidSynth 2.3's voice model as data the one voice
/// loop reads (`SamplerVoice+SoundFont`). Generators and modulators are evaluated at note-on and
/// again whenever a controller the part holds has changed (`modulate`), into the values a chunk
/// needs: attenuation, pan, pitch, filter, LFO and envelope settings, sends. Render-thread safe
/// value type; lives inside `SamplerVoice`.
struct SF2Voice {
    var zone: SF2ZoneTables?
    var key = 0
    var velocity = 0
    /// The key and velocity modulators, pitch and key scaling see (the zone's overrides applied).
    var actualKey = 0
    var actualVelocity = 0
    var volume = SF2Envelope(isVolume: true)
    var modulation = SF2Envelope(isVolume: false)
    var modLFO = SF2LFO()
    var vibLFO = SF2LFO()

    // What the last evaluation produced (generator + modulators, limited as FluidSynth does).
    /// Centibels, 0…1440.
    var attenuation = 0.0
    /// −500…500 (0.1 %), and its sine-law gains.
    var pan = 0.0
    var panGains = (left: 0.0, right: 0.0)
    /// The attenuation's amplitude × the filter's passband gain × the zone's gain (fixed between evaluations).
    var baseAmplitude = 0.0
    /// Nominal pitch in absolute cents, and the root's (limited to 1500…13500, whole cents).
    var pitch = 0.0
    var rootCents = 0.0
    var modLFOToPitch = 0.0, vibLFOToPitch = 0.0, modEnvToPitch = 0.0
    var cutoff = 13_500.0, modLFOToCutoff = 0.0, modEnvToCutoff = 0.0
    var modLFOToVolume = 0.0
    /// Linear Q, and the gain FluidSynth's filter gives the passband (1/√q: +1.5 dB at Q 0).
    var q = 0.707_9
    var filterGain = 1.188_5
    /// True when the filter can change the sound (see `needsFilter`); otherwise it is skipped.
    var filterActive = false
    var reverbSend = 0.0, chorusSend = 0.0
    var exclusiveClass = 0

    /// The part's modulation epoch the values were evaluated at.
    var epoch: UInt32 = 0
    /// Frames since note-on (FluidSynth's ticks: the minimum note length counts them).
    var elapsedFrames = 0
    /// A note-off that arrived before the minimum note length; applied once it has passed.
    var releasePending = false
    /// Silenced by a newer note of its exclusive class (`choke`).
    var isChoked = false

    /// Starts the note: envelopes and LFOs from the beginning, every generator evaluated.
    @_noAllocation
    mutating func start(
        zone: SF2ZoneTables, key: Int, velocity: Int, sources: SF2ModulationSources, sampleRate: Double, epoch: UInt32,
        scratch: UnsafeMutablePointer<Double>
    ) {
        self.zone = zone
        self.key = key
        self.velocity = velocity
        let keyOverride = zone.generators[SF2Generator.keyNumber]
        let velocityOverride = zone.generators[SF2Generator.velocity]
        actualKey = keyOverride >= 0 ? Int(min(keyOverride, 127)) : key
        actualVelocity = velocityOverride > 0 ? Int(min(velocityOverride, 127)) : velocity
        exclusiveClass = Int(max(0, min(zone.generators[SF2Generator.exclusiveClass], 127)))
        volume.start()
        modulation.start()
        elapsedFrames = 0
        releasePending = false
        isChoked = false
        modulate(sources: sources, sampleRate: sampleRate, epoch: epoch, scratch: scratch)
        let g = UnsafePointer(scratch)
        modLFO.start(delayFrames: Self.delayFrames(g[SF2Generator.modLFODelay], sampleRate: sampleRate))
        vibLFO.start(delayFrames: Self.delayFrames(g[SF2Generator.vibLFODelay], sampleRate: sampleRate))
    }

    /// Evaluates the generators plus every modulator (into `scratch`, `SF2Generator.count`
    /// values) and derives what the chunks read. Envelope sections keep their progress.
    @_noAllocation
    mutating func modulate(sources: SF2ModulationSources, sampleRate: Double, epoch: UInt32, scratch: UnsafeMutablePointer<Double>) {
        guard let zone else { return }
        self.epoch = epoch
        var sources = sources
        sources.key = actualKey
        sources.velocity = actualVelocity
        for g in 0..<SF2Generator.count { scratch[g] = zone.generators[g] }
        for m in 0..<zone.modulatorCount {
            let modulator = zone.modulators[m]
            let destination = Int(modulator.destination)
            if destination < SF2Generator.count { scratch[destination] += sources.value(of: modulator) }
        }
        derive(from: UnsafePointer(scratch), zone: zone, sampleRate: sampleRate)
    }

    @_noAllocation
    private mutating func derive(from g: UnsafePointer<Double>, zone: SF2ZoneTables, sampleRate: Double) {
        typealias G = SF2Generator
        attenuation = clip(g[G.initialAttenuation], 0, 1440)
        pan = g[G.pan]
        // Root key and scale tuning are not real-time: their unmodulated values (FluidSynth).
        let override = zone.generators[G.overridingRootKey]
        let root = (override > -1 ? override : Double(zone.originalPitch)) * 100 - Double(zone.pitchCorrection)
        pitch = zone.generators[G.scaleTuning] * (Double(actualKey) - root / 100) + root + 100 * g[G.coarseTune] + g[G.fineTune]
        rootCents = RealTimeMath.floor(clip(root, 1500, 13_500))
        modLFOToPitch = clip(g[G.modLFOToPitch], -12_000, 12_000)
        vibLFOToPitch = clip(g[G.vibLFOToPitch], -12_000, 12_000)
        modEnvToPitch = clip(g[G.modEnvToPitch], -12_000, 12_000)
        cutoff = g[G.initialFilterCutoff]
        modLFOToCutoff = clip(g[G.modLFOToFilterCutoff], -12_000, 12_000)
        modEnvToCutoff = clip(g[G.modEnvToFilterCutoff], -12_000, 12_000)
        modLFOToVolume = clip(g[G.modLFOToVolume], -960, 960)
        let qDecibels = clip(g[G.initialFilterQ] / 10, 0, 96)
        let newQ = RealTimeMath.pow(10, (qDecibels - 3.01) / 20)
        if newQ != q {  // a modulated Q designs the filter anew at the next chunk, as FluidSynth's set_q does
            designedHertz = -1
            evaluatedCutoffCents = .nan
        }
        q = newQ
        filterGain = 1 / RealTimeMath.sqrt(q)
        filterActive = qDecibels > 0 || cutoff < 13_500 || modLFOToCutoff != 0 || modEnvToCutoff != 0
        panGains = (SF2Units.panGain(pan, left: true), SF2Units.panGain(pan, left: false))
        baseAmplitude = SF2Units.amplitude(centibels: attenuation) * filterGain * zone.gain
        lastEnvelopeAttenuation = .nan
        reverbSend = clip(g[G.reverbSend] / 1000, 0, 1)
        chorusSend = clip(g[G.chorusSend] / 1000, 0, 1)
        modLFO.set(hertz: SF2Units.hertz(absoluteCents: clip(g[G.modLFOFrequency], -16_000, 4500)), sampleRate: sampleRate)
        vibLFO.set(hertz: SF2Units.hertz(absoluteCents: clip(g[G.vibLFOFrequency], -16_000, 4500)), sampleRate: sampleRate)
        configure(&volume, g, base: G.volEnvDelay, keyHold: G.keyToVolEnvHold, releaseFloor: -7200, sampleRate: sampleRate)
        configure(&modulation, g, base: G.modEnvDelay, keyHold: G.keyToModEnvHold, releaseFloor: -12_000, sampleRate: sampleRate)
    }

    /// One envelope's section lengths from its six generators (delay … release at `base` …
    /// `base` + 5) and its two key-scaling ones, in whole 64-frame blocks as FluidSynth rounds
    /// them: delay truncated, attack and release one block more than truncated, hold and decay
    /// rounded; a volume release never shorter than −7200 tc (16 ms, FluidSynth's anti-click).
    @_noAllocation
    private func configure(
        _ envelope: inout SF2Envelope, _ g: UnsafePointer<Double>, base: Int, keyHold: Int, releaseFloor: Double, sampleRate: Double
    ) {
        envelope.delayFrames = Self.blocks(SF2Units.delaySeconds(timecents: clip(g[base], -12_000, 5000)), sampleRate) * SF2Units.blockFrames
        envelope.attackFrames = (1 + Self.blocks(SF2Units.rampSeconds(timecents: clip(g[base + 1], -12_000, 8000)), sampleRate))
            * SF2Units.blockFrames
        envelope.holdFrames = holdOrDecayBlocks(g[base + 2] + g[keyHold] * Double(60 - actualKey), isDecay: false, sampleRate: sampleRate)
            * SF2Units.blockFrames
        envelope.decayFrames = holdOrDecayBlocks(g[base + 3] + g[keyHold + 1] * Double(60 - actualKey), isDecay: true, sampleRate: sampleRate)
            * SF2Units.blockFrames
        envelope.sustainLevel = clip(1 - 0.001 * g[base + 4], 0, 1)
        let release = isChoked ? Self.chokeTimecents : clip(g[base + 5], releaseFloor, 8000)
        envelope.releaseFrames = (1 + Self.blocks(SF2Units.rampSeconds(timecents: release), sampleRate)) * SF2Units.blockFrames
    }

    /// Whole blocks in `seconds`, truncated (and bounded).
    @_noAllocation
    private static func blocks(_ seconds: Double, _ sampleRate: Double) -> Int {
        let block = Double(SF2Units.blockFrames)
        return Int(min(max(sampleRate * seconds / block, 0), Double(Int32.max) / block))
    }

    /// FluidSynth's `calculate_hold_decay_buffers`: timecents limited (hold ≤ 5000 with −32768 =
    /// none, decay ≤ 8000, both ≥ −12000), then rounded to whole blocks.
    @_noAllocation
    private func holdOrDecayBlocks(_ timecents: Double, isDecay: Bool, sampleRate: Double) -> Int {
        var tc = min(timecents, isDecay ? 8000 : 5000)
        if !isDecay && tc <= -32_768 { return 0 }
        tc = max(tc, -12_000)
        let blocks = sampleRate * RealTimeMath.exp2(tc / 1200) / Double(SF2Units.blockFrames) + 0.5
        return Int(min(max(blocks, 0), Double(Int32.max) / Double(SF2Units.blockFrames)))
    }

    /// Frames an LFO waits (FluidSynth: delay timecents limited to −12000…5000, truncated to frames).
    @_noAllocation
    static func delayFrames(_ timecents: Double, sampleRate: Double) -> Int {
        Int(sampleRate * SF2Units.delaySeconds(timecents: clip(timecents, -12_000, 5000)))
    }

    // MARK: Per chunk

    /// The modulation envelope as pitch and cutoff hear it: through the convex curve while attacking.
    @inline(__always)  // as `pitchCents`
    var modulationEnvelopeValue: Double {
        modulation.section == .attack ? SF2Units.convex(127 * modulation.value) : modulation.value
    }

    /// Pitch in cents relative to the root, at the LFOs' and modulation envelope's current values
    /// plus `tuningCents` (master and RPN tuning), truncated to whole cents as FluidSynth's
    /// pitch table is indexed.
    /// Inlined: called on the voice's `sf`, an outlined call copies the whole state first.
    @_noAllocation
    @inline(__always)
    func pitchCents(tuningCents: Double) -> Double {
        let cents = pitch + modLFO.value * modLFOToPitch + vibLFO.value * vibLFOToPitch + modulationEnvelopeValue * modEnvToPitch
            + tuningCents
        return RealTimeMath.floor(cents) - rootCents
    }

    /// The filter's cutoff now in absolute cents, limited to 1500…13500 and whole, as
    /// `SF2Units.cutoffHertz` takes it: equal cents, equal cutoff.
    @inline(__always)  // as `pitchCents`
    var cutoffCents: Double {
        let cents = cutoff + modLFO.value * modLFOToCutoff + modulationEnvelopeValue * modEnvToCutoff
        return RealTimeMath.floor(min(max(cents, 1500), 13_500))
    }

    /// The filter's cutoff at `cents`, Hz, within 5 Hz … 0.45 × the output rate (FluidSynth's limits).
    @_noAllocation
    @inline(__always)  // as `pitchCents`
    func cutoffHertz(cents: Double, sampleRate: Double) -> Double {
        min(max(SF2Units.cutoffHertz(absoluteCents: cents), 5), 0.45 * sampleRate)
    }

    /// The modulation LFO's attenuation now, centibels (FluidSynth 2.3: a negative sum is 0 dB).
    @inline(__always)  // as `pitchCents`
    var lfoCentibels: Double { modLFO.value * -modLFOToVolume }

    /// The voice's amplitude now (before pan): attenuation, the filter's passband gain, the volume
    /// envelope (linear during the attack, 96 dB span after it) and the modulation LFO.
    @_noAllocation
    mutating func amplitude() -> Double {
        switch volume.section {
        case .delay, .finished: return 0
        case .attack: return baseAmplitude * SF2Units.amplitude(centibels: lfoCentibels) * volume.value
        default:
            // pow only when the envelope or the LFO moved (a sustained note reuses its level).
            let centibels = SF2Units.peakAttenuationCentibels * (1 - volume.value) + lfoCentibels
            if centibels != lastEnvelopeAttenuation {
                lastEnvelopeAttenuation = centibels
                lastEnvelopeAmplitude = SF2Units.amplitude(centibels: centibels)
            }
            return baseAmplitude * lastEnvelopeAmplitude
        }
    }

    private var lastEnvelopeAttenuation = Double.nan
    private var lastEnvelopeAmplitude = 0.0

    /// Moves envelopes and LFOs on by `frames` and returns how many of them, from the start, the
    /// volume envelope was still in its delay (FluidSynth 2.3 neither sounds nor moves the sample then).
    @_noAllocation
    mutating func advance(frames: Int) -> Int {
        let silent = min(frames, volume.delayFramesLeft)
        elapsedFrames = min(elapsedFrames + frames, Int(Int32.max))
        volume.advance(frames: frames)
        modulation.advance(frames: frames)
        modLFO.advance(frames: frames)
        vibLFO.advance(frames: frames)
        return silent
    }

    /// Note-off: both envelopes enter their release, at once or, for a note shorter than
    /// `minimumFrames` (FluidSynth's 10 ms minimum note length), once it has lasted that long.
    @_noAllocation
    mutating func release(minimumFrames: Int) {
        if elapsedFrames < minimumFrames {
            releasePending = true
            return
        }
        releasePending = false
        volume.release(lfoCentibels: lfoCentibels)
        modulation.release()
    }

    /// Exclusive class: another note of the class started. Both releases become −200 tc (about
    /// 0.9 s for the full 96 dB), as FluidSynth's hi-hat choke, also through later evaluations;
    /// the caller then releases the voice.
    @_noAllocation
    mutating func choke(sampleRate: Double) {
        isChoked = true
        let frames = (1 + Self.blocks(SF2Units.rampSeconds(timecents: Self.chokeTimecents), sampleRate)) * SF2Units.blockFrames
        volume.releaseFrames = frames
        modulation.releaseFrames = frames
        exclusiveClass = 0
    }

    /// FluidSynth's release for a choked voice ("found through listening tests with hi-hat samples").
    static let chokeTimecents = -200.0

    var isReleasing: Bool { volume.section >= .release || releasePending }

    // MARK: Fast fade (stolen, re-struck, bank swap, all sound off)

    /// Frames left of a fast fade-out and its length; −1: not fading.
    private(set) var fadeFramesLeft = -1
    private var fadeFrames = 1
    /// Filter state and the cutoff it was last designed for (−1: design at the first chunk).
    var filter = SF2Filter()
    /// The right channel's, for a stereo waveform (SoundFont samples are mono: stereo pairs are two voices).
    var rightFilter = SF2Filter()
    var designedHertz = -1.0
    /// The cutoff cents last looked at (NaN: none yet): a chunk whose cents did not move skips its exp2.
    var evaluatedCutoffCents = Double.nan
    /// Left/right gains reached at the end of the previous chunk (each chunk ramps from them).
    var lastGains: (left: Float, right: Float) = (0, 0)

    /// Fades out linearly over `seconds` (whatever the envelopes do), then the voice ends.
    @_noAllocation
    mutating func fade(seconds: Double, sampleRate: Double) {
        let frames = max(1, Int(min(max(seconds * sampleRate, 1), 1e6)))
        if fadeFramesLeft < 0 || frames < fadeFramesLeft {
            fadeFrames = frames
            fadeFramesLeft = frames
        }
    }

    /// The fade's factor after `frames` more frames (1 when not fading), counting them off.
    @_noAllocation
    mutating func fadeFactor(after frames: Int) -> Double {
        guard fadeFramesLeft >= 0 else { return 1 }
        fadeFramesLeft = max(0, fadeFramesLeft - frames)
        return Double(fadeFramesLeft) / Double(fadeFrames)
    }

    @inline(__always)  // as `pitchCents`
    var isFadedOut: Bool { fadeFramesLeft == 0 }

    /// Clears what a previous note left (fade, filter, gains).
    @_noAllocation
    mutating func resetRenderState() {
        fadeFramesLeft = -1
        filter.reset()
        rightFilter.reset()
        designedHertz = -1
        evaluatedCutoffCents = .nan
        lastGains = (0, 0)
    }
}

@_noAllocation @inline(__always)
private func clip(_ x: Double, _ low: Double, _ high: Double) -> Double { min(max(x, low), high) }
