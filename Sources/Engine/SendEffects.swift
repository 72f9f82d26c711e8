import DSP

/// The `fx.reverb.*` and `fx.chorus.*` parameters (ranges are the units' own).
struct SendEffectParameters {
    var enabled = 0
    var reverbDecay = 0, reverbHighFrequencyRatio = 0, reverbDamping = 0, reverbPreDelay = 0
    var reverbSize = 0, reverbDiffusion = 0, reverbLevel = 0
    var chorusRate = 0, chorusDepth = 0, chorusDelay = 0, chorusSpread = 0, chorusLevel = 0, chorusVoices = 0

    init() {}

    init(table t: ParameterTable) {
        typealias R = ReverbSettings
        typealias C = ChorusSettings
        let r = R(), c = C()
        enabled = t.register(.init("fx.enabled", range: 0...1, default: 1, kind: .toggle,
                                   summary: "reverb and chorus sends on the master; off: parts send nothing (tails ring out)"))
        func ms(_ range: ClosedRange<Double>) -> ClosedRange<Double> { range.lowerBound * 1000...range.upperBound * 1000 }
        reverbDecay = t.register(.init("fx.reverb.decay", unit: "s", range: R.decayRange, default: r.decaySeconds,
                                       summary: "reverb RT60: seconds for the tail to fall 60 dB (low frequencies)"))
        reverbHighFrequencyRatio = t.register(.init("fx.reverb.hfratio", range: R.highFrequencyDecayRatioRange, default: r.highFrequencyDecayRatio,
                                                    summary: "reverb decay time at fx.reverb.damping as a fraction of fx.reverb.decay (1 = no damping)"))
        reverbDamping = t.register(.init("fx.reverb.damping", unit: "Hz", range: R.dampingRange, default: r.dampingHz,
                                         summary: "frequency where fx.reverb.hfratio holds"))
        reverbPreDelay = t.register(.init("fx.reverb.predelay", unit: "ms", range: ms(R.preDelayRange), default: r.preDelaySeconds * 1000,
                                          summary: "time before the reverb starts"))
        reverbSize = t.register(.init("fx.reverb.size", range: R.sizeRange, default: r.size,
                                      summary: "reverb delay-line scale (1 = 43–86 ms lines, a mid-sized hall); glides over 0.2 s"))
        reverbDiffusion = t.register(.init("fx.reverb.diffusion", range: R.diffusionRange, default: r.diffusion,
                                           summary: "reverb early diffusion, 0 (discrete echoes) … 1 (dense at once)"))
        reverbLevel = t.register(.init("fx.reverb.level", unit: "dB", range: R.levelRange, default: r.levelDecibels,
                                       summary: "reverb return level (each part sends CC91/127, GM default 40)"))
        chorusRate = t.register(.init("fx.chorus.rate", unit: "Hz", range: C.rateRange, default: c.rateHz, summary: "chorus LFO rate"))
        chorusDepth = t.register(.init("fx.chorus.depth", unit: "ms", range: C.depthRange, default: c.depthMilliseconds,
                                       summary: "chorus delay swing around fx.chorus.delay"))
        chorusDelay = t.register(.init("fx.chorus.delay", unit: "ms", range: C.baseDelayRange, default: c.baseDelayMilliseconds,
                                       summary: "chorus centre delay"))
        chorusSpread = t.register(.init("fx.chorus.spread", range: C.spreadRange, default: c.spread,
                                        summary: "chorus voices from centred (0) to hard left … hard right (1)"))
        chorusLevel = t.register(.init("fx.chorus.level", unit: "dB", range: C.levelRange, default: c.levelDecibels,
                                       summary: "chorus return level (each part sends CC93/127, GM default 0)"))
        chorusVoices = t.register(.init("fx.chorus.voices", range: Double(StereoChorus.voiceRange.lowerBound)...Double(StereoChorus.voiceRange.upperBound),
                                        default: 3, kind: .integer, summary: "chorus voices (LFO phases evenly apart)"))
    }
}

/// The master's send effects: a reverb (`FeedbackDelayReverb`, an 8-line FDN) and a chorus
/// (`StereoChorus`), fed by the parts through `bus` and returned into the dry mix before the
/// master filters, gain and limiter. The chorus return does not feed the reverb (GM2's
/// "chorus send to reverb" defaults to 0; parts that want both send to both).
///
/// Idle: an effect runs only while some part sends to it or its tail is still sounding (the
/// reverb's `tailSeconds`, two RT60s, tracks the decay setting); otherwise it costs nothing.
/// Allocate on the control thread; the rest runs on the render thread.
final class SendEffects {
    let bus: SendBus
    let reverb: FeedbackDelayReverb
    let chorus: StereoChorus
    private let wet: StereoBuffer
    private let sampleRate: Double
    private var reverbFramesSinceInput = Int.max / 2
    private var chorusFramesSinceInput = Int.max / 2

    init(sampleRate: Double, maxFrames: Int) {
        self.sampleRate = sampleRate
        bus = SendBus(maxFrames: maxFrames)
        reverb = FeedbackDelayReverb(sampleRate: sampleRate, maxFrames: maxFrames)
        chorus = StereoChorus(sampleRate: sampleRate, maxFrames: maxFrames)
        wet = StereoBuffer(capacity: maxFrames)
    }

    private var reverbRinging: Bool { Double(reverbFramesSinceInput) < reverb.tailSeconds * sampleRate }
    private var chorusRinging: Bool { Double(chorusFramesSinceInput) < chorus.tailSeconds * sampleRate }

    /// True while a tail may still sound (the engine is not idle then).
    var isRinging: Bool { reverbRinging || chorusRinging }

    /// Block start: nothing sent yet.
    func begin(frames: Int) { bus.begin(frames: frames) }

    /// Takes the parameter table's settings; `snap` jumps to them (first block).
    func apply(_ p: ParameterTable, _ ids: SendEffectParameters, snap: Bool) {
        reverb.apply(ReverbSettings(
            decaySeconds: p.value(ids.reverbDecay), highFrequencyDecayRatio: p.value(ids.reverbHighFrequencyRatio),
            dampingHz: p.value(ids.reverbDamping), preDelaySeconds: p.value(ids.reverbPreDelay) / 1000, size: p.value(ids.reverbSize),
            diffusion: p.value(ids.reverbDiffusion), levelDecibels: p.value(ids.reverbLevel)))
        chorus.apply(ChorusSettings(
            rateHz: p.value(ids.chorusRate), depthMilliseconds: p.value(ids.chorusDepth), baseDelayMilliseconds: p.value(ids.chorusDelay),
            spread: p.value(ids.chorusSpread), levelDecibels: p.value(ids.chorusLevel)))
        chorus.setVoiceCount(Int(p.value(ids.chorusVoices)))
        if snap { reset() }
    }

    /// Silences both tails (first block, and after non-finite output).
    func reset() {
        reverb.reset()
        chorus.reset()
        reverbFramesSinceInput = Int.max / 2
        chorusFramesSinceInput = Int.max / 2
    }

    /// Adds the effects' returns for this block into `out`; false when neither ran (nothing
    /// sent, tails over).
    func process(into out: StereoBlock) -> Bool {
        reverbFramesSinceInput = bus.reverbActive ? 0 : reverbFramesSinceInput + out.frames
        chorusFramesSinceInput = bus.chorusActive ? 0 : chorusFramesSinceInput + out.frames
        let runReverb = reverbRinging, runChorus = chorusRinging
        if runReverb { run(reverb, input: bus.reverb, active: bus.reverbActive, into: out) }
        if runChorus { run(chorus, input: bus.chorus, active: bus.chorusActive, into: out) }
        return runReverb || runChorus
    }

    /// One effect on its send (silence when nothing was sent: the tail rings on), its return
    /// added into `out`.
    private func run(_ effect: some SendEffect, input: StereoBuffer, active: Bool, into out: StereoBlock) {
        let send = input.block(frames: out.frames)
        if !active { send.clear() }  // the buffer holds an old block
        let returned = wet.block(frames: out.frames)
        effect.process(input: send, output: returned)
        for i in 0..<out.frames {
            out.left[i] += returned.left[i]
            out.right[i] += returned.right[i]
        }
    }
}
