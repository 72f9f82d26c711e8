import DSP

#if canImport(Glibc)
import Glibc
#endif

/// A voice's filter (low-, high- or band-pass) with its cutoff modulation: key and velocity set an
/// offset at note-on; a controller, the filter envelope and the LFO move it per chunk. Coefficients are redesigned
/// only when the cutoff actually moved. Render thread (started from `handle`).
struct VoiceFilter {
    var isEnabled = false
    private var svf = StereoStateVariableFilter()
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
    let sampleRate: Double
    /// Set by `process` when its chunk ran away (see `VoiceGuard`): the chunk was silenced, the
    /// state cleared, and the voice must stop.
    private(set) var ranAway = false

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
        svf.reset()
        guard isEnabled else { return }
        kind = settings.kind
        cutoffHz = settings.cutoffHz
        resonanceDecibels = settings.resonanceDecibels
        fixedCents = (modulation.byKey?.value(Double(key) / 128) ?? 0)
            + (modulation.byVelocity?.value(Double(velocity) / 127) ?? 0)
        controller = modulation.byController == nil ? -1 : (modulation.controller ?? -1)
        byController = modulation.byController ?? SamplerModulationAmount(atOne: 0)
        hasEnvelope = false
        byEnvelope = modulation.byEnvelope ?? SamplerModulationAmount(atOne: 0)
        envelope.reset()
        if let settings = modulation.envelope, modulation.byEnvelope != nil {
            hasEnvelope = true
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
        svf.reset()
        envelope.reset()
    }

    /// Filters the chunk in place, moving the cutoff every `updateFrames` to where the controller
    /// glide, the envelope and the LFO (`lfoCents` at the chunk's start and end, ramped between)
    /// put it.
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
                svf.design(kind, cutoffHz: cutoffHz * RealTimeMath.exp2(cents / 1200), resonanceDecibels: resonanceDecibels, sampleRate: sampleRate)
            }
            svf.process(block.slice(from: offset, count: frames))
            offset += frames
        }
        ranAway = VoiceGuard.ranAway(block)
        if ranAway {
            block.clear()
            svf.reset()
        }
    }
}

/// The voice filter's core: a state-variable filter integrated with the trapezoidal rule (A.
/// Simper's "linear trapezoidal" SVF). For fixed settings its response is exactly the RBJ
/// cookbook biquad's (`BiquadCoefficients.design`: the same bilinear transform of the same analog
/// prototype, prewarped at the cutoff), but its state is the integrators' charge, so it stays
/// stable when the cutoff moves every few frames at full resonance, where a direct-form biquad's
/// state, meaningful only for the coefficients that made it, can grow without bound.
struct StereoStateVariableFilter {
    private var kind = BiquadCoefficients.Kind.lowPass
    /// 1/Q, and the integrators' gains from g = tan(π·f/fs).
    private var k = 2.0.squareRoot()
    private var a1 = 1.0, a2 = 0.0, a3 = 0.0
    private var state: (l1: Double, l2: Double, r1: Double, r2: Double) = (0, 0, 0, 0)

    mutating func reset() { state = (0, 0, 0, 0) }

    mutating func design(_ kind: BiquadCoefficients.Kind, cutoffHz: Double, resonanceDecibels: Double, sampleRate: Double) {
        design(kind, cutoffHz: cutoffHz, q: BiquadCoefficients.q(resonanceDecibels: resonanceDecibels), sampleRate: sampleRate)
    }

    /// The same with a linear Q (the RBJ cookbook's).
    mutating func design(_ kind: BiquadCoefficients.Kind, cutoffHz: Double, q: Double, sampleRate: Double) {
        self.kind = kind
        let f = min(max(cutoffHz, 1), sampleRate * 0.49)
        let g = RealTimeMath.tan(Double.pi * f / sampleRate)
        k = 1 / q
        a1 = 1 / (1 + g * (g + k))
        a2 = g * a1
        a3 = g * a2
    }

    /// Filters `block` in place.
    mutating func process(_ block: StereoBlock) {
        var (l1, l2, r1, r2) = state
        for i in 0..<block.frames {
            block.left[i] = Float(tick(Double(block.left[i]), &l1, &l2))
            block.right[i] = Float(tick(Double(block.right[i]), &r1, &r2))
        }
        // Flush denormals that decaying state would otherwise leave behind.
        if abs(l1) < 1e-30 { l1 = 0 }
        if abs(l2) < 1e-30 { l2 = 0 }
        if abs(r1) < 1e-30 { r1 = 0 }
        if abs(r2) < 1e-30 { r2 = 0 }
        state = (l1, l2, r1, r2)
    }

    @inline(__always)
    private func tick(_ x: Double, _ ic1: inout Double, _ ic2: inout Double) -> Double {
        let v3 = x - ic2
        let v1 = a1 * ic1 + a2 * v3
        let v2 = ic2 + a2 * ic1 + a3 * v3
        ic1 = 2 * v1 - ic1
        ic2 = 2 * v2 - ic2
        switch kind {
        case .lowPass: return v2
        case .highPass: return x - k * v1 - v2
        case .bandPass: return k * v1
        }
    }
}
