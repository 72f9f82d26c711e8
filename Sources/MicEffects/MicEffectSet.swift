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
    /// The built objects' addresses for the render thread, which must not retain them (the lazy
    /// references above keep them alive; each is stored once, after its object).
    private let spectralPassAddress = Atomic<UnsafeMutableRawPointer?>(nil)
    private let pitchShiftAddress = Atomic<UnsafeMutableRawPointer?>(nil)
    private let pitchDetectorAddress = Atomic<UnsafeMutableRawPointer?>(nil)
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
            publish(spectralPass.storeIfNil(SpectralPassEffect(sampleRate: sampleRate)), to: spectralPassAddress)
        }
        if needs & Need.pitchShift != 0 && pitchShift.load() == nil {
            publish(pitchShift.storeIfNil(PitchShiftEffect(sampleRate: sampleRate)), to: pitchShiftAddress)
        }
        if needs & Need.pitchDetector != 0 && pitchDetector.load() == nil {
            publish(pitchDetector.storeIfNil(PitchDetector(sampleRate: sampleRate, hopFrames: 512)), to: pitchDetectorAddress)
        }
    }

    private func publish(_ object: AnyObject, to address: borrowing Atomic<UnsafeMutableRawPointer?>) {
        address.store(Unmanaged.passUnretained(object).toOpaque(), ordering: .releasing)
    }

    // MARK: Render thread

    /// Asks the control thread to build `needs`.
    @_noAllocation
    func request(_ needs: UInt8) { requested.bitwiseOr(needs, ordering: .relaxed) }

    /// The built effects and detector, unretained; nil until built.
    var builtSpectralPass: RenderRef<SpectralPassEffect>? { @_noAllocation get { reference(spectralPassAddress) } }
    var builtPitchShift: RenderRef<PitchShiftEffect>? { @_noAllocation get { reference(pitchShiftAddress) } }
    var builtPitchDetector: RenderRef<PitchDetector>? { @_noAllocation get { reference(pitchDetectorAddress) } }

    @inline(__always)  // generic: checked where it is inlined
    private func reference<Object: AnyObject>(_ address: borrowing Atomic<UnsafeMutableRawPointer?>) -> RenderRef<Object>? {
        guard let a = address.load(ordering: .acquiring) else { return nil }
        return RenderRef(address: a)
    }
}

/// Every effect of the chain and the dispatch from `MicEffectKind` to them (a switch over
/// concrete types: no existentials on the render thread). The time-domain effects are built at
/// init; the STFT effects and the pitch detector come from `builder` once it has built them.
/// The render path reaches every object through a `RenderRef` (the `let`s and the builder keep
/// them alive).
final class MicEffectSet {
    static var maximumLatencyFrames: Int { 4096 }
    private typealias Need = MicEffectBuilder.Need

    let sampleRate: Double
    let ring: RingModEffect
    let echo: EchoEffect
    let average: AverageEffect
    let lowpass: LowpassEffect
    let builder: MicEffectBuilder
    /// The effects and readouts as the render path reaches them (the chain sets the time-domain
    /// effects' parameters through these directly).
    let units: Units
    /// The render thread's references, taken from the builder's once they exist.
    private var spectralPass: RenderRef<SpectralPassEffect>?
    private var pitchShift: RenderRef<PitchShiftEffect>?
    private var pitchDetector: RenderRef<PitchDetector>?
    private var pitchShiftSemitones = 0.0
    private let monoScratch: UnsafeMutablePointer<Float>

    struct Units {
        let ring: RenderRef<RingModEffect>, echo: RenderRef<EchoEffect>, average: RenderRef<AverageEffect>
        let lowpass: RenderRef<LowpassEffect>, builder: RenderRef<MicEffectBuilder>
        /// The readouts the effects publish to (the chain's `readouts` keeps them alive).
        let dominantFrequencyHz: RenderRef<PublishedFloat>, pitch: RenderRef<PublishedPitch>, shiftedPitchHz: RenderRef<PublishedFloat>
    }

    init(sampleRate: Double, maxFrames: Int, readouts: MicReadouts) {
        self.sampleRate = sampleRate
        ring = RingModEffect(sampleRate: sampleRate)
        echo = EchoEffect(sampleRate: sampleRate)
        average = AverageEffect(sampleRate: sampleRate, maxFrames: maxFrames)
        lowpass = LowpassEffect(sampleRate: sampleRate)
        builder = MicEffectBuilder(sampleRate: sampleRate)
        units = Units(
            ring: RenderRef(ring), echo: RenderRef(echo), average: RenderRef(average), lowpass: RenderRef(lowpass),
            builder: RenderRef(builder), dominantFrequencyHz: RenderRef(readouts.dominantFrequencyHz), pitch: RenderRef(readouts.pitch),
            shiftedPitchHz: RenderRef(readouts.shiftedPitchHz))
        monoScratch = .allocate(capacity: maxFrames)
        monoScratch.initialize(repeating: 0, count: maxFrames)
    }

    deinit { monoScratch.deallocate() }

    static func latencyFrames(of kind: MicEffectKind) -> Int {
        switch kind {
        case .off, .ringmod, .delay, .average: 0
        case .lowpass: LowpassEffect.latencyFrames
        case .fft: SpectralPassEffect.latencyFrames
        case .pitchshift: PitchShiftEffect.latencyFrames
        }
    }

    // MARK: Render thread

    @_noAllocation
    func setPitchShiftSemitones(_ semitones: Double) {
        pitchShiftSemitones = semitones
        if let shifter = pitchShift { shifter { $0.setSemitones(semitones) } }
    }

    /// True when `kind` can run now; otherwise asks the control thread to build it.
    @_noAllocation
    func isReady(_ kind: MicEffectKind) -> Bool {
        let builder = units.builder
        switch kind {
        case .off, .ringmod, .delay, .average, .lowpass:
            return true
        case .fft:
            if spectralPass == nil { spectralPass = builder { $0.builtSpectralPass } }
            if spectralPass == nil { builder { $0.request(Need.spectralPass) } }
            return spectralPass != nil
        case .pitchshift:
            if pitchShift == nil, let shifter = builder({ $0.builtPitchShift }) {
                let semitones = pitchShiftSemitones
                shifter { $0.setSemitones(semitones) }
                pitchShift = shifter
            }
            if pitchShift == nil { builder { $0.request(Need.pitchShift | Need.pitchDetector) } }
            return pitchShift != nil
        }
    }

    @_noAllocation
    func reset(_ kind: MicEffectKind) {
        switch kind {
        case .off: break
        case .ringmod: units.ring { $0.reset() }
        case .delay: units.echo { $0.reset() }
        case .average: units.average { $0.reset() }
        case .lowpass: units.lowpass { $0.reset() }
        case .fft: if let effect = spectralPass { effect { $0.reset() } }
        case .pitchshift: if let effect = pitchShift { effect { $0.reset() } }
        }
    }

    @_noAllocation
    func process(_ kind: MicEffectKind, input: StereoBlock, output: StereoBlock) {
        switch kind {
        case .off: output.copy(from: input)
        case .ringmod: units.ring { $0.process(input: input, output: output) }
        case .delay: units.echo { $0.process(input: input, output: output) }
        case .average: units.average { $0.process(input: input, output: output) }
        case .lowpass: units.lowpass { $0.process(input: input, output: output) }
        // Only selected once ready (`isReady`).
        case .fft:
            if let effect = spectralPass {
                let readout = units.dominantFrequencyHz
                effect { $0.process(input: input, output: output, dominantFrequencyHz: readout) }
            }
        case .pitchshift: if let effect = pitchShift { effect { $0.process(input: input, output: output) } }
        }
    }

    /// Runs the pitch detector on (L + R)/2 and publishes each new estimate (once it is built).
    @_noAllocation
    func trackPitch(_ input: StereoBlock) {
        if pitchDetector == nil { pitchDetector = units.builder { $0.builtPitchDetector } }
        guard let detector = pitchDetector else { return units.builder { $0.request(Need.pitchDetector) } }
        let mono = monoScratch
        for i in 0..<input.frames { mono[i] = 0.5 * (input.left[i] + input.right[i]) }
        guard let estimate = detector({ $0.push(mono, count: input.frames) ? $0.latest : nil }) else { return }
        units.pitch { $0.store(estimate) }
        var ratio: Float = 1
        if let shifter = pitchShift { ratio = shifter { $0.ratio } }
        let shifted = estimate.voiced ? Float(estimate.frequencyHz) * ratio : 0
        units.shiftedPitchHz { $0.store(shifted) }
    }
}
