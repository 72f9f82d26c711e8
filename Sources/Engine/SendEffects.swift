import DSP

/// The `fx.reverb.*` and `fx.chorus.*` parameters (ranges are the units' own).
struct SendEffectParameters {
    var enabled = 0
    var reverbDecay = 0, reverbHighFrequencyRatio = 0, reverbDamping = 0, reverbPreDelay = 0
    var reverbSize = 0, reverbDiffusion = 0, reverbLevel = 0
    var chorusRate = 0, chorusDepth = 0, chorusDelay = 0, chorusSpread = 0, chorusLevel = 0, chorusVoices = 0

    init() {}

    init(table t: ParameterTableBuilder) {
        typealias R = ReverbSettings
        typealias C = ChorusSettings
        let r = R(), c = C()
        func add(_ name: String, unit: String = "", _ range: ClosedRange<Double>, _ value: Double, kind: ParameterKind = .continuous,
                 _ summary: String) -> Int {
            t.register(.init("fx.\(name)", unit: unit, range: range, default: value, kind: kind, summary: summary))
        }
        func ms(_ range: ClosedRange<Double>) -> ClosedRange<Double> { range.lowerBound * 1000...range.upperBound * 1000 }
        enabled = add("enabled", 0...1, 1, kind: .toggle, "reverb and chorus sends on the master; off: parts send nothing (tails ring out)")
        reverbDecay = add("reverb.decay", unit: "s", R.decayRange, r.decaySeconds, "reverb RT60: seconds for the tail to fall 60 dB (low frequencies)")
        reverbHighFrequencyRatio = add("reverb.hfratio", R.highFrequencyDecayRatioRange, r.highFrequencyDecayRatio,
                                       "reverb decay time at fx.reverb.damping as a fraction of fx.reverb.decay (1 = no damping)")
        reverbDamping = add("reverb.damping", unit: "Hz", R.dampingRange, r.dampingHz, "frequency where fx.reverb.hfratio holds")
        reverbPreDelay = add("reverb.predelay", unit: "ms", ms(R.preDelayRange), r.preDelaySeconds * 1000, "time before the reverb starts")
        reverbSize = add("reverb.size", R.sizeRange, r.size, "reverb delay-line scale (1 = 43–86 ms lines, a mid-sized hall); glides over 0.2 s")
        reverbDiffusion = add("reverb.diffusion", R.diffusionRange, r.diffusion, "reverb early diffusion, 0 (discrete echoes) … 1 (dense at once)")
        reverbLevel = add("reverb.level", unit: "dB", R.levelRange, r.levelDecibels, "reverb return level (each part sends CC91/127, GM default 40)")
        chorusRate = add("chorus.rate", unit: "Hz", C.rateRange, c.rateHz, "chorus LFO rate")
        chorusDepth = add("chorus.depth", unit: "ms", C.depthRange, c.depthMilliseconds, "chorus delay swing around fx.chorus.delay")
        chorusDelay = add("chorus.delay", unit: "ms", C.baseDelayRange, c.baseDelayMilliseconds, "chorus centre delay")
        chorusSpread = add("chorus.spread", C.spreadRange, c.spread, "chorus voices from centred (0) to hard left … hard right (1)")
        chorusLevel = add("chorus.level", unit: "dB", C.levelRange, c.levelDecibels, "chorus return level (each part sends CC93/127, GM default 0)")
        let voices = StereoChorus.voiceRange
        chorusVoices = add("chorus.voices", Double(voices.lowerBound)...Double(voices.upperBound), 3, kind: .integer,
                           "chorus voices (LFO phases evenly apart)")
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
    /// `bus` as plain pointers: what the parts are handed and the render path reads.
    let target: SendTarget
    let reverb: FeedbackDelayReverb
    let chorus: StereoChorus
    /// The two effects as the render path calls them (this object's `reverb` and `chorus` keep
    /// them alive; a call on a class held in a stored property is a retain and a release).
    private let reverbUnit: RenderRef<FeedbackDelayReverb>
    private let chorusUnit: RenderRef<StereoChorus>
    private let wet: StereoBuffer
    private let wetBlock: StereoBlock
    private let sampleRate: Double
    private var reverbFramesSinceInput = Int.max / 2
    private var chorusFramesSinceInput = Int.max / 2
    /// The effects' tails in frames, read after every `apply`, `reset` and run (the reverb's glides
    /// with its decay and size).
    private var reverbTailFrames = 0.0
    private var chorusTailFrames = 0.0

    init(sampleRate: Double, maxFrames: Int) {
        self.sampleRate = sampleRate
        bus = SendBus(maxFrames: maxFrames)
        target = bus.target
        reverb = FeedbackDelayReverb(sampleRate: sampleRate, maxFrames: maxFrames)
        chorus = StereoChorus(sampleRate: sampleRate, maxFrames: maxFrames)
        reverbUnit = RenderRef(reverb)
        chorusUnit = RenderRef(chorus)
        wet = StereoBuffer(capacity: maxFrames)
        wetBlock = wet.block(frames: maxFrames)
        updateTails()
    }

    private var reverbRinging: Bool { @_noAllocation get { Double(reverbFramesSinceInput) < reverbTailFrames } }
    private var chorusRinging: Bool { @_noAllocation get { Double(chorusFramesSinceInput) < chorusTailFrames } }

    /// True while a tail may still sound (the engine is not idle then).
    var isRinging: Bool {
        @_noAllocation get {
            let reverb = reverbRinging, chorus = chorusRinging
            return reverb || chorus
        }
    }

    /// Block start: nothing sent yet.
    @_noAllocation
    func begin(frames: Int) { target.begin(frames: frames) }

    /// Takes the parameter table's settings; `snap` jumps to them (first block).
    @_noAllocation
    func apply(_ table: RenderRef<ParameterTable>, _ ids: SendEffectParameters, snap: Bool) {
        let (reverbSettings, chorusSettings, voices) = table { p in
            (ReverbSettings(
                decaySeconds: p.value(ids.reverbDecay), highFrequencyDecayRatio: p.value(ids.reverbHighFrequencyRatio),
                dampingHz: p.value(ids.reverbDamping), preDelaySeconds: p.value(ids.reverbPreDelay) / 1000, size: p.value(ids.reverbSize),
                diffusion: p.value(ids.reverbDiffusion), levelDecibels: p.value(ids.reverbLevel)),
             ChorusSettings(
                rateHz: p.value(ids.chorusRate), depthMilliseconds: p.value(ids.chorusDepth), baseDelayMilliseconds: p.value(ids.chorusDelay),
                spread: p.value(ids.chorusSpread), levelDecibels: p.value(ids.chorusLevel)),
             Int(p.value(ids.chorusVoices)))
        }
        reverbUnit { $0.apply(reverbSettings) }
        chorusUnit {
            $0.apply(chorusSettings)
            $0.setVoiceCount(voices)
        }
        updateTails()
        if snap { reset() }
    }

    @_noAllocation
    private func updateTails() {
        let rate = sampleRate
        reverbTailFrames = reverbUnit { $0.tailSeconds } * rate
        chorusTailFrames = chorusUnit { $0.tailSeconds } * rate
    }

    /// Silences both tails (first block, and after non-finite output).
    @_noAllocation
    func reset() {
        reverbUnit { $0.reset() }
        chorusUnit { $0.reset() }
        updateTails()
        reverbFramesSinceInput = Int.max / 2
        chorusFramesSinceInput = Int.max / 2
    }

    /// Adds the effects' returns for this block into `out`; false when neither ran (nothing
    /// sent, tails over).
    @_noAllocation
    func process(into out: StereoBlock) -> Bool {
        let reverbActive = target.reverbActive, chorusActive = target.chorusActive
        reverbFramesSinceInput = reverbActive ? 0 : reverbFramesSinceInput + out.frames
        chorusFramesSinceInput = chorusActive ? 0 : chorusFramesSinceInput + out.frames
        let runReverb = reverbRinging, runChorus = chorusRinging
        if runReverb {
            let (send, returned) = blocks(input: target.reverb, active: reverbActive, frames: out.frames)
            reverbUnit { $0.process(input: send, output: returned) }
            add(returned, into: out)
        }
        if runChorus {
            let (send, returned) = blocks(input: target.chorus, active: chorusActive, frames: out.frames)
            chorusUnit { $0.process(input: send, output: returned) }
            add(returned, into: out)
        }
        if runReverb || runChorus { updateTails() }
        return runReverb || runChorus
    }

    /// An effect's send for this block (silence when nothing was sent: the tail rings on) and
    /// where its return goes (not generic over the effect: a generic closure is rejected).
    @_noAllocation
    private func blocks(input: StereoBlock, active: Bool, frames: Int) -> (send: StereoBlock, returned: StereoBlock) {
        let send = input.slice(from: 0, count: frames)
        if !active { send.clear() }  // the buffer holds an old block
        return (send, wetBlock.slice(from: 0, count: frames))
    }

    @_noAllocation
    private func add(_ returned: StereoBlock, into out: StereoBlock) {
        for i in 0..<out.frames {
            out.left[i] += returned.left[i]
            out.right[i] += returned.right[i]
        }
    }
}
