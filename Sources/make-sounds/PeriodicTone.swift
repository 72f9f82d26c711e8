import Glibc

/// A loop length (whole frames) holding a whole number of periods of a tone, chosen so that the
/// tone's frequency changes by less than `maxDetuneCents` when made exactly periodic in it.
struct PeriodicLoop {
    let periods: Int
    let frames: Int
    let sampleRate: Double

    /// The exact frequency whose `periods` periods fill `frames` frames.
    var frequency: Double { Double(periods) * sampleRate / Double(frames) }

    /// The smallest period count whose rounded length is within `maxDetuneCents` of `frequency`.
    static func fitting(frequency: Double, sampleRate: Double, maxDetuneCents: Double = 0.05) -> PeriodicLoop? {
        for periods in 1...2_000 {
            let frames = Int((Double(periods) * sampleRate / frequency).rounded())
            let loop = PeriodicLoop(periods: periods, frames: frames, sampleRate: sampleRate)
            if abs(1200 * log2(loop.frequency / frequency)) < maxDetuneCents { return loop }
        }
        return nil
    }

    /// A loop of about `seconds` holding a whole number of periods (long loops leave room for
    /// slowly beating ensemble voices); within 0.05 cent of `frequency` for loops over 0.2 s.
    static func lasting(seconds: Double, frequency: Double, sampleRate: Double) -> PeriodicLoop {
        let periods = max(1, Int((seconds * frequency).rounded()))
        return PeriodicLoop(periods: periods, frames: Int((Double(periods) * sampleRate / frequency).rounded()), sampleRate: sampleRate)
    }
}

/// A harmonic tone for a sampler: an attack in which each harmonic moves from its attack level to its
/// steady level, then a region that is EXACTLY periodic with the loop length (every sample equals the
/// one `loop.frames` later, bit for bit), then a fade to silence for one-shot playback.
struct HarmonicTone {
    struct Partial {
        var harmonic: Int
        var attackAmplitude: Double
        var steadyAmplitude: Double
        var phase: Double
        /// Whole cycles per loop added to this partial: a detuned copy that is still exactly
        /// periodic in the loop (an ensemble voice beating at `detuneCycles` per loop).
        var detuneCycles = 0
    }

    /// A component of the attack only (a hammer's thump, a mallet's inharmonic ring, a breath's
    /// chiff): it fades out with the settling, so it is gone, exactly, by the loop start.
    struct Transient {
        /// Frequency as a multiple of the loop's fundamental; nil: band-passed noise.
        var ratio: Double?
        var amplitude: Double
        var decaySeconds: Double
        /// Noise only: the band's centre and Q.
        var noiseHz = 3_000.0
        var noiseQ = 0.7
    }

    /// Noise that repeats every loop length (a breath, a bow's hiss), band-passed; in the attack
    /// and the loop alike, so the loop stays exactly periodic.
    struct LoopNoise {
        var level: Double
        var centerHz: Double
        var q: Double
        var seed: UInt64
    }

    var partials: [Partial]
    var transients: [Transient] = []
    var loopNoise: LoopNoise? = nil
    var attackSeconds: Double
    /// Time at which every partial has reached its steady level; the sustain loop starts here.
    var settleSeconds: Double
    /// Number of `loop.frames` blocks in the sustain loop.
    var loopRepeats: Int
    var tailSeconds: Double

    /// Returns the samples (peak-normalised to `peak`) and the sustain loop (exclusive end).
    func render(loop: PeriodicLoop, peak: Double) -> (samples: [Float], loopStart: Int, loopEnd: Int) {
        let sampleRate = loop.sampleRate
        let loopStart = Int(settleSeconds * sampleRate)
        let loopEnd = loopStart + loop.frames * loopRepeats
        let tailFrames = Int(tailSeconds * sampleRate)
        let length = loopEnd + tailFrames
        let attackFrames = Int(attackSeconds * sampleRate)
        var samples = [Double](repeating: 0, count: length)
        let attackPart = renderTransients(frames: loopStart, loop: loop)
        let noise = loopNoise.map { periodicNoise($0, frames: loop.frames, sampleRate: sampleRate) }
        for n in 0..<length {
            // Phase from n mod L in integers, so samples one loop apart are computed identically.
            let position = n % loop.frames
            let settle = n >= loopStart ? 0 : pow(1 - Double(n) / Double(loopStart), 3)
            var value = 0.0
            for partial in partials {
                let cycle = ((partial.harmonic * loop.periods + partial.detuneCycles) * position) % loop.frames
                let amplitude = partial.steadyAmplitude + (partial.attackAmplitude - partial.steadyAmplitude) * settle
                value += amplitude * sin(2 * Double.pi * Double(cycle) / Double(loop.frames) + partial.phase)
            }
            if n < loopStart { value += attackPart[n] * settle }
            if let noise { value += noise[position] }
            let tail = n < loopEnd ? 1 : fadeOut(n, length: length, fadeFrames: tailFrames)
            samples[n] = value * attack(n, frames: attackFrames) * tail
        }
        return (LoopBuffer.normalized(samples, peak: peak), loopStart, loopEnd)
    }

    /// The transients over the first `frames` frames (before the settling fade is applied).
    private func renderTransients(frames: Int, loop: PeriodicLoop) -> [Double] {
        var out = [Double](repeating: 0, count: frames)
        var random = SeededRandom(seed: 0x7_4A45_1E47)
        for transient in transients {
            var filter = Biquad.bandPass(centerHz: transient.noiseHz, q: transient.noiseQ, sampleRate: loop.sampleRate)
            for n in 0..<frames {
                let t = Double(n) / loop.sampleRate
                let source = transient.ratio.map { sin(2 * Double.pi * $0 * loop.frequency * t) } ?? filter.process(random.bipolar())
                out[n] += transient.amplitude * exp(-t / transient.decaySeconds) * source
            }
        }
        return out
    }

    /// Band-passed noise exactly `frames` long that wraps seamlessly: the filter runs over the
    /// buffer twice and the second pass (which starts from the end of the first) is kept.
    private func periodicNoise(_ noise: LoopNoise, frames: Int, sampleRate: Double) -> [Double] {
        var random = SeededRandom(seed: noise.seed)
        let white = (0..<frames).map { _ in random.bipolar() }
        var filter = Biquad.bandPass(centerHz: noise.centerHz, q: noise.q, sampleRate: sampleRate)
        for x in white { _ = filter.process(x) }
        let filtered = white.map { filter.process($0) }
        let rms = (filtered.reduce(0) { $0 + $1 * $1 } / Double(frames)).squareRoot()
        return filtered.map { $0 * noise.level / max(rms, 1e-12) }
    }
}
