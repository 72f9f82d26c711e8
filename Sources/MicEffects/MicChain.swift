import DSP
import Spectral

/// The mic/line input effect chain: one selectable stereo effect with a wet/dry mix, smoothed
/// parameters in real units, click-free switching, input meters and pitch readouts.
///
/// Threads: `init` allocates the time-domain effects (control thread); the STFT effects and the
/// pitch detector are built by `prepare…` on the control thread when first needed (the engine
/// calls `prepareRequested` from `performControlWork`). `process` and every `set…` are render-thread safe:
/// the engine calls the setters at block start from its parameter table. An effect selected
/// before it is built is switched to as soon as it is (the render thread never waits).
/// `readouts` and `pitchTrackingEnabled` may be used from any thread.
///
/// Switching: the old and the new effect both run for 20 ms and a raised-cosine crossfade moves
/// the output over; an effect with latency (the STFT ones) first runs silently for its latency,
/// so its first real output is what fades in. Each effect's dry signal is delayed by the same
/// latency so that the wet/dry mix never comb-filters.
public final class MicChain {
    public let sampleRate: Double
    public let maxFrames: Int
    /// Render-thread measurements for the control thread.
    public let readouts: MicReadouts
    /// Builds the STFT effects and the pitch detector off the render thread (`Sendable`).
    public var builder: MicEffectBuilder { effects.builder }

    let effects: MicEffectSet
    /// Owns the chain's buffers and delay lines; the render path uses the views and `RenderRef`s
    /// below (a call on a class held in a stored property is a retain and a release).
    private let storage: [AnyObject]
    private let inputCopy: StereoBlock
    private let newSlot: StereoBlock
    private let oldSlot: StereoBlock
    private let wetScratch: StereoBlock
    private let mixGains: UnsafeMutablePointer<Float>
    private let dryLeft: RenderRef<DelayLine>
    private let dryRight: RenderRef<DelayLine>
    private let effectSet: RenderRef<MicEffectSet>
    /// The effect set's units, for the setters.
    private let units: MicEffectSet.Units
    private let published: PublishedReadouts
    /// `MicEffectSet.latencyFrames(of:)` by `MicEffectKind.rawValue` (the effects' statics are
    /// class members, which the render path may not name).
    private let latencies: UnsafeMutablePointer<Int>
    private var meters: (left: LevelMeter, right: LevelMeter)
    private var mix: LinearSmoother
    private var monoInput = false

    private var requestedKind: MicEffectKind = .off
    /// Render thread's; every change is published to `readouts.activeEffect` for other threads.
    private var activeKind: MicEffectKind = .off {
        @_noAllocation didSet {
            let raw = UInt8(activeKind.rawValue), readouts = published.readouts
            readouts { $0.activeEffect.store(raw, ordering: .relaxed) }
        }
    }
    private var fadingOutKind: MicEffectKind = .off
    private var switchFade: Crossfade
    private var prerollFrames = 0

    /// Allocates 2 s of delay memory and the low-pass kernel bank; no FFT plans (see `prepare`).
    /// Control thread only.
    public init(sampleRate: Double, maxFrames: Int) {
        self.sampleRate = sampleRate
        self.maxFrames = max(1, maxFrames)
        let frames = self.maxFrames
        let readouts = MicReadouts()
        self.readouts = readouts
        effects = MicEffectSet(sampleRate: sampleRate, maxFrames: frames, readouts: readouts)
        let buffers = (0..<4).map { _ in StereoBuffer(capacity: frames) }
        inputCopy = buffers[0].block(frames: frames)
        newSlot = buffers[1].block(frames: frames)
        oldSlot = buffers[2].block(frames: frames)
        wetScratch = buffers[3].block(frames: frames)
        mixGains = .allocate(capacity: frames)
        mixGains.initialize(repeating: 1, count: frames)
        let dryAge = frames + MicEffectSet.maximumLatencyFrames
        let dry = (DelayLine(maximumAgeFrames: dryAge), DelayLine(maximumAgeFrames: dryAge))
        dryLeft = RenderRef(dry.0)
        dryRight = RenderRef(dry.1)
        effectSet = RenderRef(effects)
        units = effects.units
        storage = buffers + [dry.0, dry.1]
        published = PublishedReadouts(readouts)
        latencies = .allocate(capacity: MicEffectKind.allCases.count)
        for kind in MicEffectKind.allCases { (latencies + kind.rawValue).initialize(to: MicEffectSet.latencyFrames(of: kind)) }
        meters = (LevelMeter(sampleRate: sampleRate), LevelMeter(sampleRate: sampleRate))
        mix = LinearSmoother(value: 1, sampleRate: sampleRate, rampSeconds: 0.020)
        switchFade = Crossfade(sampleRate: sampleRate, seconds: 0.020)
    }

    deinit {
        mixGains.deallocate()
        latencies.deallocate()
    }

    // MARK: Building on first use (control thread; FFTW planning is serialised internally)

    /// Builds what `kind` needs now, so that selecting it switches at once.
    public func prepare(_ kind: MicEffectKind) { effects.builder.prepare(kind) }

    /// Builds the pitch detector now (it is otherwise built when tracking is first asked for).
    public func preparePitchTracking() { effects.builder.preparePitchTracking() }

    /// Builds what the render thread has found missing (an effect selected, tracking switched on).
    public func prepareRequested() { effects.builder.prepareRequested() }

    // MARK: Parameters (render-thread safe; call at block start)

    /// Selects the effect; the change crossfades over 20 ms (after the new effect's latency).
    @_noAllocation
    public func setEffect(_ kind: MicEffectKind) { requestedKind = kind }
    /// Wet/dry mix of the effect, 0 (dry) … 1 (wet), smoothed over 20 ms.
    @_noAllocation
    public func setMix(_ mix: Double) { self.mix.setTarget(Float(min(max(mix.isFinite ? mix : 1, 0), 1))) }
    /// Ring-modulator carrier in Hz, 0…4000 (0 passes the input), glides over 10 ms.
    @_noAllocation
    public func setRingFrequencyHz(_ hz: Double) { units.ring { $0.setCarrierHz(hz) } }
    /// Echo time in seconds, one frame…2 s; changes crossfade between read heads (20 ms).
    @_noAllocation
    public func setDelaySeconds(_ seconds: Double) { units.echo { $0.setDelaySeconds(seconds) } }
    /// Echo feedback 0…0.95, smoothed.
    @_noAllocation
    public func setDelayFeedback(_ amount: Double) { units.echo { $0.setFeedback(amount) } }
    /// Echo wet/dry 0…1 inside the delay effect (1 = echoes only), smoothed.
    @_noAllocation
    public func setDelayMix(_ mix: Double) { units.echo { $0.setMix(mix) } }
    /// Moving-average length, 3…101 points; changes crossfade over 20 ms.
    @_noAllocation
    public func setAveragePoints(_ points: Int) { units.average { $0.setPoints(points) } }
    /// Low-pass −6 dB frequency in Hz, 20…4000, glides over 20 ms in log frequency.
    @_noAllocation
    public func setLowpassCutoffHz(_ hz: Double) { units.lowpass { $0.setCutoffHz(hz) } }
    /// Pitch shift in semitones, −12…+12, smoothed.
    @_noAllocation
    public func setPitchShiftSemitones(_ semitones: Double) { effectSet { $0.setPitchShiftSemitones(semitones) } }
    /// Sums the input to mono (both channels get (L + R)/2) before the effect.
    @_noAllocation
    public func setMonoInput(_ mono: Bool) { monoInput = mono }

    /// Runs the pitch tracker on the input even when no effect needs it (it always runs while
    /// `pitchshift` is selected). Any thread.
    public var pitchTrackingEnabled: Bool {
        get { readouts.pitchTracking.load(ordering: .relaxed) }
        @_noAllocation set {
            let readouts = published.readouts
            readouts { $0.pitchTracking.store(newValue, ordering: .relaxed) }
        }
    }

    /// Latency of `kind` in frames (its output lags its input by this much; dry is aligned).
    public func latencyFrames(for kind: MicEffectKind) -> Int { MicEffectSet.latencyFrames(of: kind) }

    /// Latency of the selected effect in frames.
    public var latencyFrames: Int { latencyFrames(for: requestedKind) }

    /// The effect currently heard (after any crossfade completes, the last one requested). Any
    /// thread: read from the published copy, never from the render thread's own state.
    public var currentEffect: MicEffectKind { readouts.effect }

    /// Silences all effect state and finishes any crossfade. Render-thread safe.
    @_noAllocation
    public func reset() {
        let requested = requestedKind
        if effectSet({ $0.isReady(requested) }) { activeKind = requested }
        switchFade.finish()
        prerollFrames = 0
        let active = activeKind
        effectSet { $0.reset(active) }
        dryLeft { $0.reset() }
        dryRight { $0.reset() }
        mix.snap(to: mix.target)
    }

    // MARK: Render

    /// Processes `input` into `output` (overwritten; the two may be the same buffers) for any
    /// frame count ≤ `maxFrames`. Render-thread safe.
    @_noAllocation
    public func process(input: StereoBlock, output: StereoBlock) {
        let maxFrames = maxFrames
        precondition(input.frames <= maxFrames, "block above maxFrames: the caller chunks (Sources/DSP/README.md)")
        let frames = input.frames
        let x = inputCopy.slice(from: 0, count: frames)
        if monoInput {
            for i in 0..<frames {
                let m = 0.5 * (input.left[i] + input.right[i])
                x.left[i] = m
                x.right[i] = m
            }
        } else {
            x.copy(from: input)
        }
        measure(x)
        let gains = mixGains
        dryLeft { for i in 0..<frames { $0.write(x.left[i]) } }
        dryRight { for i in 0..<frames { $0.write(x.right[i]) } }
        for i in 0..<frames { gains[i] = mix.next() }
        let requested = requestedKind, active = activeKind, fading = switchFade.isActive, set = effectSet
        if !fading && requested != active && set({ $0.isReady(requested) }) {
            fadingOutKind = active
            activeKind = requested
            set { $0.reset(requested) }
            prerollFrames = latencies[requested.rawValue]
            switchFade.start()
        }
        let newOut = newSlot.slice(from: 0, count: frames)
        renderSlot(activeKind, input: x, into: newOut)
        guard switchFade.isActive else {
            output.copy(from: newOut)
            return
        }
        let oldOut = oldSlot.slice(from: 0, count: frames)
        renderSlot(fadingOutKind, input: x, into: oldOut)
        for i in 0..<frames {
            var g: Float = 0
            if prerollFrames > 0 { prerollFrames -= 1 } else { g = switchFade.next() }
            output.left[i] = oldOut.left[i] + g * (newOut.left[i] - oldOut.left[i])
            output.right[i] = oldOut.right[i] + g * (newOut.right[i] - oldOut.right[i])
        }
    }

    /// One effect's output, wet mixed with its latency-aligned dry signal.
    @_noAllocation
    private func renderSlot(_ kind: MicEffectKind, input x: StereoBlock, into out: StereoBlock) {
        if kind == .off {
            out.copy(from: x)
            return
        }
        let wet = wetScratch.slice(from: 0, count: x.frames)
        effectSet { $0.process(kind, input: x, output: wet) }
        let latency = latencies[kind.rawValue]
        let last = x.frames - 1, gains = mixGains
        dryLeft { dry in
            for i in 0..<x.frames {
                let m = gains[i]
                out.left[i] = (1 - m) * dry.read(age: last - i + latency) + m * wet.left[i]
            }
        }
        dryRight { dry in
            for i in 0..<x.frames {
                let m = gains[i]
                out.right[i] = (1 - m) * dry.read(age: last - i + latency) + m * wet.right[i]
            }
        }
    }

    @_noAllocation
    private func measure(_ x: StereoBlock) {
        meters.left.process(x.left, frames: x.frames)
        meters.right.process(x.right, frames: x.frames)
        let m = meters
        published.peak.left { $0.store(Float(m.left.peakDecibels)) }
        published.peak.right { $0.store(Float(m.right.peakDecibels)) }
        published.rms.left { $0.store(Float(m.left.rmsDecibels)) }
        published.rms.right { $0.store(Float(m.right.rmsDecibels)) }
        let tracking = published.readouts { $0.pitchTracking.load(ordering: .relaxed) }
        let active = activeKind, requested = requestedKind
        if tracking || active == .pitchshift || requested == .pitchshift {
            effectSet { $0.trackPitch(x) }
        }
    }
}

/// The readouts' atomics as the render path reaches them (the chain's `readouts` keeps them alive).
private struct PublishedReadouts {
    let readouts: RenderRef<MicReadouts>
    let peak: (left: RenderRef<PublishedFloat>, right: RenderRef<PublishedFloat>)
    let rms: (left: RenderRef<PublishedFloat>, right: RenderRef<PublishedFloat>)

    init(_ r: MicReadouts) {
        readouts = RenderRef(r)
        peak = (RenderRef(r.inputPeakDecibels.left), RenderRef(r.inputPeakDecibels.right))
        rms = (RenderRef(r.inputRMSDecibels.left), RenderRef(r.inputRMSDecibels.right))
    }
}
