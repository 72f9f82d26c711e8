import DSP

/// A SoundFont envelope as FluidSynth 2.3 runs it (`fluid_adsr_env.h`, `fluid_voice.c`): delay,
/// attack, hold, decay, sustain, release, each a straight line in the envelope value e ∈ 0…1 whose
/// length is a whole number of FluidSynth's 64-frame blocks. FluidSynth steps e once per block;
/// this moves it every frame along the same line, so at every block boundary the two agree.
///
/// For the volume envelope e is heard as amplitude during the attack and as 96·(1 − e) dB of
/// attenuation after it (`SF2Voice`), which makes the attack linear in amplitude and decay and
/// release linear in dB. Render-thread safe value type.
struct SF2Envelope {
    enum Section: UInt8, Comparable {
        case delay, attack, hold, decay, sustain, release, finished
        static func < (a: Section, b: Section) -> Bool { a.rawValue < b.rawValue }
    }

    private(set) var section = Section.finished
    private(set) var value = 0.0
    /// Frames spent in the current section.
    private var elapsed = 0
    /// The volume envelope lands exactly on the sustain level when its decay time runs out;
    /// FluidSynth's modulation envelope does not (a zero decay leaves it at its peak).
    let isVolume: Bool

    /// Section lengths in frames (whole blocks): FluidSynth's section counts × 64.
    var delayFrames = 0
    var attackFrames = SF2Units.blockFrames
    var holdFrames = 0
    var decayFrames = 0
    var releaseFrames = SF2Units.blockFrames
    /// e at which the decay stops (1 − sustain/1000).
    var sustainLevel = 1.0

    init(isVolume: Bool) { self.isVolume = isVolume }

    var isFinished: Bool { section == .finished }

    @_noAllocation
    mutating func start() {
        section = .delay
        value = 0
        elapsed = 0
    }

    /// Frames left in the delay section (0 once past it).
    var delayFramesLeft: Int { section == .delay ? max(0, delayFrames - elapsed) : 0 }

    /// Enters the release from the current value. A volume envelope released during its attack
    /// first converts e so that the amplitude carries on unchanged (`lfoCentibels`: the modulation
    /// LFO's attenuation now); a modulation envelope maps e through the convex attack curve it
    /// was heard through.
    @_noAllocation
    mutating func release(lfoCentibels: Double = 0) {
        guard section < .release else { return }
        if section == .attack && value > 0 {
            if isVolume {
                let amplitude = value * SF2Units.amplitude(centibels: lfoCentibels)
                let e = -((-200 * RealTimeMath.log10(amplitude) - lfoCentibels) / SF2Units.peakAttenuationCentibels - 1)
                value = min(max(e, 0), 1)
            } else {
                value = min(max(SF2Units.convex(127 * value), 0), 1)
            }
        }
        enter(.release)
    }

    /// Moves the envelope on by `frames`.
    @_noAllocation
    mutating func advance(frames: Int) {
        var left = frames
        while left > 0 && section != .sustain && section != .finished {
            let length = self.length(of: section)
            let remaining = length - elapsed
            if remaining <= 0 {
                if section == .decay && isVolume { value = sustainLevel }
                enter(next(after: section))
                continue
            }
            var n = min(left, remaining)
            let rate = self.rate(of: section, length: length)
            if rate > 0, value + rate * Double(n) >= 1 {
                n = min(n, max(1, Self.framesCeiling((1 - value) / rate)))
                left -= n
                value = 1
                enter(next(after: section))
                continue
            }
            let floor = section == .decay ? sustainLevel : 0
            if rate < 0, value + rate * Double(n) <= floor {
                n = min(n, max(1, Self.framesCeiling((value - floor) / -rate)))
                left -= n
                value = floor
                enter(next(after: section))
                continue
            }
            value += rate * Double(n)
            elapsed += n
            left -= n
        }
    }

    /// ⌈x⌉ as a frame count, within 0…2³¹.
    private static func framesCeiling(_ x: Double) -> Int {
        Int(min(max(-RealTimeMath.floor(-x), 0), Double(Int32.max)))
    }

    private mutating func enter(_ next: Section) {
        section = next
        elapsed = 0
        if next == .delay || next == .finished { value = 0 }
    }

    private func next(after section: Section) -> Section {
        switch section {
        case .delay: .attack
        case .attack: .hold
        case .hold: .decay
        case .decay: .sustain
        case .sustain, .release, .finished: .finished
        }
    }

    private func length(of section: Section) -> Int {
        switch section {
        case .delay: delayFrames
        case .attack: max(attackFrames, 1)
        case .hold: holdFrames
        case .decay: decayFrames
        case .release: max(releaseFrames, 1)
        case .sustain, .finished: Int.max
        }
    }

    /// Change of e per frame: attack +1/attack, decay −1/decay (a full 0 → 1 swing in the stated
    /// time: 96 dB for the volume envelope), release −1/release; flat elsewhere.
    private func rate(of section: Section, length: Int) -> Double {
        switch section {
        case .attack: 1 / Double(length)
        case .decay, .release: -1 / Double(length)
        default: 0
        }
    }
}

/// A SoundFont LFO as FluidSynth 2.3 runs it (`fluid_lfo.h`): after its delay (rounded up to a
/// whole 64-frame block, as FluidSynth only starts it on a block), a triangle starting at 0 and
/// rising to +1, then −1, …, moving 4·f/rate per frame. Render-thread safe value type.
struct SF2LFO {
    private(set) var value = 0.0
    /// Change per frame; its sign is the direction.
    private var step = 0.0
    private var startFrame = 0
    private var elapsed = 0

    /// Restarts at 0 rising, moving from `delayFrames` (rounded up to whole blocks) on.
    @_noAllocation
    mutating func start(delayFrames: Int) {
        value = 0
        elapsed = 0
        step = abs(step)
        let block = SF2Units.blockFrames
        startFrame = (max(0, delayFrames) + block - 1) / block * block
    }

    /// New frequency (the direction is kept).
    @_noAllocation
    mutating func set(hertz: Double, sampleRate: Double) {
        let magnitude = 4 * max(hertz, 0) / sampleRate
        step = step < 0 ? -magnitude : magnitude
    }

    @_noAllocation
    mutating func advance(frames: Int) {
        var n = frames
        if elapsed < startFrame {
            let wait = min(n, startFrame - elapsed)
            elapsed += wait
            n -= wait
        }
        guard n > 0 else { return }
        elapsed = min(elapsed + n, Int(Int32.max))
        value += step * Double(n)
        // At most a few reflections: the frequency is limited to 109 Hz, a chunk to 64 frames.
        // (A counted `while`: a `for … where` over 0..<8 tested all eight every chunk.)
        var reflections = 0
        while (value > 1 || value < -1) && reflections < 8 {
            value = value > 1 ? 2 - value : -2 - value
            step = -step
            reflections += 1
        }
    }
}
