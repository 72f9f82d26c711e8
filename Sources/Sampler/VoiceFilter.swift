import DSP

#if canImport(Glibc)
import Glibc
#endif

/// A voice's filter (low-, high- or band-pass) with its cutoff modulation: key and velocity set an
/// offset at note-on; a controller, the filter envelope and the LFO move it per chunk. Coefficients are redesigned
/// only when the cutoff actually moved. Render thread (started from `handle`).
struct VoiceFilter {
    var isEnabled = false
    private var biquad = StereoBiquad()
    private var envelope: Envelope
    private var hasEnvelope = false
    private var kind = BiquadCoefficients.Kind.lowPass
    private var cutoffHz = 20_000.0
    private var resonanceDecibels = 0.0
    /// Key + velocity offset, cents (fixed for the note).
    private var fixedCents = 0.0
    private var controller = -1
    private var byController = SamplerModulationAmount(atOne: 0)
    /// The controller's contribution, glided toward its target so a jump never zips; NaN until
    /// the first chunk (which starts exactly at the target).
    private var controllerCents = Double.nan
    private var byEnvelope = SamplerModulationAmount(atOne: 0)
    private var designedCents = Double.nan
    private let sampleRate: Double
    /// Set by `process` when its chunk ran away (see `VoiceGuard`): the chunk was silenced, the
    /// state cleared, and the voice must stop.
    private(set) var ranAway = false
    /// Chunks that ran away in this voice slot since start (not cleared by `reset`).
    private(set) var runaways = 0

    /// Redesign when the cutoff moved by more than this (≈ 0.1 %): inaudible, saves the trig.
    private static let redesignThresholdCents = 2.0
    /// Time constant of the controller glide.
    private static let controllerGlideSeconds = 0.020
    /// Cutoff updates happen this often while it moves (finer steps, smaller transients).
    private static let updateFrames = 8

    init(sampleRate: Double) {
        self.sampleRate = sampleRate
        envelope = Envelope(sampleRate: sampleRate)
    }

    mutating func start(_ settings: SamplerFilterSettings, modulation: SamplerFilterModulation, key: Int, velocity: Int) {
        isEnabled = settings.isEnabled
        ranAway = false
        biquad.reset()
        guard isEnabled else { return }
        kind = settings.kind
        cutoffHz = settings.cutoffHz
        resonanceDecibels = settings.resonanceDecibels
        fixedCents = (modulation.byKey?.value(Double(key) / 128) ?? 0)
            + (modulation.byVelocity?.value(Double(velocity) / 127) ?? 0)
        controller = modulation.byController == nil ? -1 : (modulation.controller ?? -1)
        byController = modulation.byController ?? SamplerModulationAmount(atOne: 0)
        hasEnvelope = modulation.envelope != nil && modulation.byEnvelope != nil
        byEnvelope = modulation.byEnvelope ?? SamplerModulationAmount(atOne: 0)
        envelope.reset()
        if let settings = modulation.envelope, hasEnvelope {
            envelope.configure(settings)
            envelope.noteOn()
        }
        designedCents = .nan
        controllerCents = .nan
    }

    /// Moves the note's cutoff by `cents` (the soft pedal's darker strike).
    mutating func shiftCutoff(cents: Double) { fixedCents += cents }

    mutating func noteOff() {
        if hasEnvelope { envelope.noteOff() }
    }

    mutating func reset() {
        biquad.reset()
        envelope.reset()
    }

    /// Filters the chunk in place, moving the cutoff every `updateFrames` to where the controller
    /// glide, the envelope and the LFO (`lfoCents` at the chunk's start and end, ramped between)
    /// put it (coefficient jumps in the biquad are what a sweep hears).
    mutating func process(
        _ block: StereoBlock, controllerValues: UnsafePointer<UInt8>, lfoCents: (start: Double, end: Double) = (0, 0)
    ) {
        let target = controller >= 0 && controller < 128
            ? byController.value(Double(controllerValues[controller]) / 127) : 0
        if controllerCents.isNaN { controllerCents = target }
        // A settled cutoff filters the whole chunk at once; a moving one in short steps.
        let lfoMoves = lfoCents.start != lfoCents.end
        let step = hasEnvelope || lfoMoves || controllerCents != target ? Self.updateFrames : block.frames
        let lfoStep = (lfoCents.end - lfoCents.start) / Double(block.frames)
        var offset = 0
        while offset < block.frames {
            let frames = min(step, block.frames - offset)
            let glide = Double(frames) / (Self.controllerGlideSeconds * sampleRate)
            controllerCents += (target - controllerCents) * min(1, glide)
            if abs(target - controllerCents) < 0.5 { controllerCents = target }  // settled: inaudible
            var cents = fixedCents + controllerCents + lfoCents.start + lfoStep * Double(offset)
            if hasEnvelope {
                cents += byEnvelope.value(Double(envelope.output))
                for _ in 0..<frames { _ = envelope.next() }
            }
            if !(abs(cents - designedCents) < Self.redesignThresholdCents) {
                designedCents = cents
                biquad.coefficients = BiquadCoefficients.design(
                    kind, cutoffHz: cutoffHz * exp2(cents / 1200), resonanceDecibels: resonanceDecibels,
                    sampleRate: sampleRate)
            }
            biquad.process(block.slice(from: offset, count: frames))
            offset += frames
        }
        ranAway = VoiceGuard.ranAway(block)
        if ranAway {
            block.clear()
            biquad.reset()
            runaways += 1
        }
    }
}
