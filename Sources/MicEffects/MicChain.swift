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
    public let readouts = MicReadouts()
    /// Builds the STFT effects and the pitch detector off the render thread (`Sendable`).
    public var builder: MicEffectBuilder { effects.builder }

    let effects: MicEffectSet
    private let inputCopy: StereoBuffer
    private let newSlot: StereoBuffer
    private let oldSlot: StereoBuffer
    private let wetScratch: StereoBuffer
    private let mixGains: UnsafeMutablePointer<Float>
    private let dryLeft: DelayLine
    private let dryRight: DelayLine
    private var meters: (left: LevelMeter, right: LevelMeter)
    private var mix: LinearSmoother
    private var monoInput = false

    private var requestedKind: MicEffectKind = .off
    /// Render thread's; every change is published to `readouts.activeEffect` for other threads.
    private var activeKind: MicEffectKind = .off {
        didSet { readouts.activeEffect.store(UInt8(activeKind.rawValue), ordering: .relaxed) }
    }
    private var fadingOutKind: MicEffectKind = .off
    private var switchFade: Crossfade
    private var prerollFrames = 0

    /// Allocates 2 s of delay memory and the low-pass kernel bank; no FFT plans (see `prepare`).
    /// Control thread only.
    public init(sampleRate: Double, maxFrames: Int) {
        self.sampleRate = sampleRate
        self.maxFrames = max(1, maxFrames)
        effects = MicEffectSet(sampleRate: sampleRate, maxFrames: self.maxFrames)
        inputCopy = StereoBuffer(capacity: self.maxFrames)
        newSlot = StereoBuffer(capacity: self.maxFrames)
        oldSlot = StereoBuffer(capacity: self.maxFrames)
        wetScratch = StereoBuffer(capacity: self.maxFrames)
        mixGains = .allocate(capacity: self.maxFrames)
        mixGains.initialize(repeating: 1, count: self.maxFrames)
        let dryAge = self.maxFrames + MicEffectSet.maximumLatencyFrames
        dryLeft = DelayLine(maximumAgeFrames: dryAge)
        dryRight = DelayLine(maximumAgeFrames: dryAge)
        meters = (LevelMeter(sampleRate: sampleRate), LevelMeter(sampleRate: sampleRate))
        mix = LinearSmoother(value: 1, sampleRate: sampleRate, rampSeconds: 0.020)
        switchFade = Crossfade(sampleRate: sampleRate, seconds: 0.020)
    }

    deinit { mixGains.deallocate() }

    // MARK: Building on first use (control thread; FFTW planning is serialised internally)

    /// Builds what `kind` needs now, so that selecting it switches at once.
    public func prepare(_ kind: MicEffectKind) { effects.builder.prepare(kind) }

    /// Builds the pitch detector now (it is otherwise built when tracking is first asked for).
    public func preparePitchTracking() { effects.builder.preparePitchTracking() }

    /// Builds what the render thread has found missing (an effect selected, tracking switched on).
    public func prepareRequested() { effects.builder.prepareRequested() }

    // MARK: Parameters (render-thread safe; call at block start)

    /// Selects the effect; the change crossfades over 20 ms (after the new effect's latency).
    public func setEffect(_ kind: MicEffectKind) { requestedKind = kind }
    /// Wet/dry mix of the effect, 0 (dry) … 1 (wet), smoothed over 20 ms.
    public func setMix(_ mix: Double) { self.mix.setTarget(Float(min(max(mix.isFinite ? mix : 1, 0), 1))) }
    /// Ring-modulator carrier in Hz, 0…4000 (0 passes the input), glides over 10 ms.
    public func setRingFrequencyHz(_ hz: Double) { effects.ring.setCarrierHz(hz) }
    /// Echo time in seconds, one frame…2 s; changes crossfade between read heads (20 ms).
    public func setDelaySeconds(_ seconds: Double) { effects.echo.setDelaySeconds(seconds) }
    /// Echo feedback 0…0.95, smoothed.
    public func setDelayFeedback(_ amount: Double) { effects.echo.setFeedback(amount) }
    /// Echo wet/dry 0…1 inside the delay effect (1 = echoes only), smoothed.
    public func setDelayMix(_ mix: Double) { effects.echo.setMix(mix) }
    /// Moving-average length, 3…101 points; changes crossfade over 20 ms.
    public func setAveragePoints(_ points: Int) { effects.average.setPoints(points) }
    /// Low-pass −6 dB frequency in Hz, 20…4000, glides over 20 ms in log frequency.
    public func setLowpassCutoffHz(_ hz: Double) { effects.lowpass.setCutoffHz(hz) }
    /// Pitch shift in semitones, −12…+12, smoothed.
    public func setPitchShiftSemitones(_ semitones: Double) { effects.setPitchShiftSemitones(semitones) }
    /// Sums the input to mono (both channels get (L + R)/2) before the effect.
    public func setMonoInput(_ mono: Bool) { monoInput = mono }

    /// Runs the pitch tracker on the input even when no effect needs it (it always runs while
    /// `pitchshift` is selected). Any thread.
    public var pitchTrackingEnabled: Bool {
        get { readouts.pitchTracking.load(ordering: .relaxed) }
        set { readouts.pitchTracking.store(newValue, ordering: .relaxed) }
    }

    /// Latency of `kind` in frames (its output lags its input by this much; dry is aligned).
    public func latencyFrames(for kind: MicEffectKind) -> Int { MicEffectSet.latencyFrames(of: kind) }

    /// Latency of the selected effect in frames.
    public var latencyFrames: Int { latencyFrames(for: requestedKind) }

    /// The effect currently heard (after any crossfade completes, the last one requested). Any
    /// thread: read from the published copy, never from the render thread's own state.
    public var currentEffect: MicEffectKind { readouts.effect }

    /// Silences all effect state and finishes any crossfade. Render-thread safe.
    public func reset() {
        if effects.isReady(requestedKind) { activeKind = requestedKind }
        switchFade.finish()
        prerollFrames = 0
        effects.reset(activeKind)
        dryLeft.reset()
        dryRight.reset()
        mix.snap(to: mix.target)
    }

    // MARK: Render

    /// Processes `input` into `output` (overwritten; the two may be the same buffers) for any
    /// frame count ≤ `maxFrames`. Render-thread safe.
    public func process(input: StereoBlock, output: StereoBlock) {
        precondition(input.frames <= maxFrames, "block above maxFrames: the caller chunks (Sources/DSP/README.md)")
        let frames = input.frames
        let x = inputCopy.block(frames: frames)
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
        for i in 0..<frames {
            dryLeft.write(x.left[i])
            dryRight.write(x.right[i])
            mixGains[i] = mix.next()
        }
        if !switchFade.isActive && requestedKind != activeKind && effects.isReady(requestedKind) {
            fadingOutKind = activeKind
            activeKind = requestedKind
            effects.reset(activeKind)
            prerollFrames = MicEffectSet.latencyFrames(of: activeKind)
            switchFade.start()
        }
        let newOut = newSlot.block(frames: frames)
        renderSlot(activeKind, input: x, into: newOut)
        guard switchFade.isActive else {
            output.copy(from: newOut)
            return
        }
        let oldOut = oldSlot.block(frames: frames)
        renderSlot(fadingOutKind, input: x, into: oldOut)
        for i in 0..<frames {
            var g: Float = 0
            if prerollFrames > 0 { prerollFrames -= 1 } else { g = switchFade.next() }
            output.left[i] = oldOut.left[i] + g * (newOut.left[i] - oldOut.left[i])
            output.right[i] = oldOut.right[i] + g * (newOut.right[i] - oldOut.right[i])
        }
    }

    /// One effect's output, wet mixed with its latency-aligned dry signal.
    private func renderSlot(_ kind: MicEffectKind, input x: StereoBlock, into out: StereoBlock) {
        if kind == .off {
            out.copy(from: x)
            return
        }
        let wet = wetScratch.block(frames: x.frames)
        effects.process(kind, input: x, output: wet, readouts: readouts)
        let latency = MicEffectSet.latencyFrames(of: kind)
        let last = x.frames - 1
        for i in 0..<x.frames {
            let m = mixGains[i]
            let age = last - i + latency
            out.left[i] = (1 - m) * dryLeft.read(age: age) + m * wet.left[i]
            out.right[i] = (1 - m) * dryRight.read(age: age) + m * wet.right[i]
        }
    }

    private func measure(_ x: StereoBlock) {
        meters.left.process(x.left, frames: x.frames)
        meters.right.process(x.right, frames: x.frames)
        readouts.inputPeakDecibels.left.store(Float(meters.left.peakDecibels))
        readouts.inputPeakDecibels.right.store(Float(meters.right.peakDecibels))
        readouts.inputRMSDecibels.left.store(Float(meters.left.rmsDecibels))
        readouts.inputRMSDecibels.right.store(Float(meters.right.rmsDecibels))
        if pitchTrackingEnabled || activeKind == .pitchshift || requestedKind == .pitchshift {
            effects.trackPitch(x, readouts: readouts)
        }
    }
}
