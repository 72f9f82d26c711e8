import DSP
import Spectral
import Synchronization

/// The control thread's end of the mic chain: builds the STFT effects and the pitch detector
/// (FFTW plans, ~35 M instructions together) when first needed — `prepare`, or `prepareRequested`
/// for what the render thread asked for — and publishes them through atomic lazy references; the
/// render thread never waits: until an effect is ready it is not switched to.
///
/// `@unchecked Sendable`: the published objects are not `Sendable`; each is built and stored here
/// exactly once and from then on used by the render thread only. Any thread, one caller at a time.
public final class MicEffectBuilder: @unchecked Sendable {
    let sampleRate: Double
    let spectralPass = AtomicLazyReference<SpectralPassEffect>()
    let pitchShift = AtomicLazyReference<PitchShiftEffect>()
    let pitchDetector = AtomicLazyReference<PitchDetector>()
    /// What the render thread is waiting for (`Need` bits); the control thread builds it.
    let requested = Atomic<UInt8>(0)

    enum Need {
        static let spectralPass: UInt8 = 1, pitchShift: UInt8 = 2, pitchDetector: UInt8 = 4
    }

    init(sampleRate: Double) { self.sampleRate = sampleRate }

    /// Builds what `kind` needs (the pitch shifter also tracks pitch), if not built yet.
    public func prepare(_ kind: MicEffectKind) {
        switch kind {
        case .fft: build(Need.spectralPass)
        case .pitchshift: build(Need.pitchShift | Need.pitchDetector)
        case .off, .ringmod, .delay, .average, .lowpass: break
        }
    }

    /// Builds the pitch detector now (it is otherwise built when tracking is first asked for).
    public func preparePitchTracking() { build(Need.pitchDetector) }

    /// Builds whatever the render thread found missing since the last call.
    public func prepareRequested() { build(requested.exchange(0, ordering: .relaxed)) }

    private func build(_ needs: UInt8) {
        if needs & Need.spectralPass != 0 && spectralPass.load() == nil {
            _ = spectralPass.storeIfNil(SpectralPassEffect(sampleRate: sampleRate))
        }
        if needs & Need.pitchShift != 0 && pitchShift.load() == nil {
            _ = pitchShift.storeIfNil(PitchShiftEffect(sampleRate: sampleRate))
        }
        if needs & Need.pitchDetector != 0 && pitchDetector.load() == nil {
            _ = pitchDetector.storeIfNil(PitchDetector(sampleRate: sampleRate, hopFrames: 512))
        }
    }

    /// Render thread: asks the control thread to build `needs`.
    func request(_ needs: UInt8) { requested.bitwiseOr(needs, ordering: .relaxed) }
}

/// Every effect of the chain and the dispatch from `MicEffectKind` to them (a switch over
/// concrete types: no existentials on the render thread). The time-domain effects are built at
/// init; the STFT effects and the pitch detector come from `builder` once it has built them.
final class MicEffectSet {
    static let maximumLatencyFrames = 4096
    private typealias Need = MicEffectBuilder.Need

    let sampleRate: Double
    let ring: RingModEffect
    let echo: EchoEffect
    let average: AverageEffect
    let lowpass: LowpassEffect
    /// The render thread's references, taken from the published ones once they exist.
    private(set) var spectralPass: SpectralPassEffect?
    private(set) var pitchShift: PitchShiftEffect?
    private(set) var pitchDetector: PitchDetector?
    let builder: MicEffectBuilder
    private var pitchShiftSemitones = 0.0
    private let monoScratch: UnsafeMutablePointer<Float>

    init(sampleRate: Double, maxFrames: Int) {
        self.sampleRate = sampleRate
        ring = RingModEffect(sampleRate: sampleRate)
        echo = EchoEffect(sampleRate: sampleRate)
        average = AverageEffect(sampleRate: sampleRate, maxFrames: maxFrames)
        lowpass = LowpassEffect(sampleRate: sampleRate)
        builder = MicEffectBuilder(sampleRate: sampleRate)
        monoScratch = .allocate(capacity: maxFrames)
        monoScratch.initialize(repeating: 0, count: maxFrames)
    }

    deinit { monoScratch.deallocate() }

    // MARK: Render thread

    /// True when `kind` can run now; otherwise asks the control thread to build it.
    func isReady(_ kind: MicEffectKind) -> Bool {
        switch kind {
        case .off, .ringmod, .delay, .average, .lowpass:
            return true
        case .fft:
            if spectralPass == nil { spectralPass = builder.spectralPass.load() }
            if spectralPass == nil { request(Need.spectralPass) }
            return spectralPass != nil
        case .pitchshift:
            if pitchShift == nil, let shifter = builder.pitchShift.load() {
                shifter.setSemitones(pitchShiftSemitones)
                pitchShift = shifter
            }
            if pitchShift == nil { request(Need.pitchShift | Need.pitchDetector) }
            return pitchShift != nil
        }
    }

    private func request(_ needs: UInt8) { builder.request(needs) }

    static func latencyFrames(of kind: MicEffectKind) -> Int {
        switch kind {
        case .off, .ringmod, .delay, .average: 0
        case .lowpass: LowpassEffect.latencyFrames
        case .fft: SpectralPassEffect.latencyFrames
        case .pitchshift: PitchShiftEffect.latencyFrames
        }
    }

    func setPitchShiftSemitones(_ semitones: Double) {
        pitchShiftSemitones = semitones
        pitchShift?.setSemitones(semitones)
    }

    func reset(_ kind: MicEffectKind) {
        switch kind {
        case .off: break
        case .ringmod: ring.reset()
        case .delay: echo.reset()
        case .average: average.reset()
        case .lowpass: lowpass.reset()
        case .fft: spectralPass?.reset()
        case .pitchshift: pitchShift?.reset()
        }
    }

    func process(_ kind: MicEffectKind, input: StereoBlock, output: StereoBlock, readouts: MicReadouts) {
        switch kind {
        case .off: output.copy(from: input)
        case .ringmod: ring.process(input: input, output: output)
        case .delay: echo.process(input: input, output: output)
        case .average: average.process(input: input, output: output)
        case .lowpass: lowpass.process(input: input, output: output)
        // Only selected once ready (`isReady`).
        case .fft: spectralPass?.process(input: input, output: output, readouts: readouts)
        case .pitchshift: pitchShift?.process(input: input, output: output)
        }
    }

    /// Runs the pitch detector on (L + R)/2 and publishes each new estimate (once it is built).
    func trackPitch(_ input: StereoBlock, readouts: MicReadouts) {
        if pitchDetector == nil { pitchDetector = builder.pitchDetector.load() }
        guard let pitchDetector else { return request(Need.pitchDetector) }
        for i in 0..<input.frames { monoScratch[i] = 0.5 * (input.left[i] + input.right[i]) }
        guard pitchDetector.push(monoScratch, count: input.frames) else { return }
        let estimate = pitchDetector.latest
        readouts.pitch.store(estimate)
        readouts.shiftedPitchHz.store(estimate.voiced ? Float(estimate.frequencyHz) * (pitchShift?.ratio ?? 1) : 0)
    }
}
