import Glibc

/// Synthesized drum hits, shared by the `beat.wav` loop and the GM kit. Each hit has a short
/// click-free attack and a raised-cosine fade over its last 10 %, so it ends in exact silence.
/// The defaults are the loop's sounds.
struct DrumVoices {
    let sampleRate: Double

    /// A sine swept from `startHz` down to `endHz` (kick, toms).
    func kick(startHz: Double = 160, endHz: Double = 50, sweepSeconds: Double = 0.03, decaySeconds: Double = 0.16, seconds: Double = 0.45)
        -> [Double]
    {
        let length = Int(seconds * sampleRate)
        var phase = 0.0
        return (0..<length).map { n in
            let t = Double(n) / sampleRate
            let frequency = endHz + (startHz - endHz) * exp(-t / sweepSeconds)
            phase += 2 * Double.pi * frequency / sampleRate
            return sin(phase) * exp(-t / decaySeconds) * attack(n, frames: 96) * fadeOut(n, length: length, fadeFrames: length / 10)
        }
    }

    /// Band-passed noise plus a decaying tone (snares, side stick).
    func snare(
        random: inout SeededRandom, seconds: Double = 0.25, toneHz: Double = 190, toneLevel: Double = 0.5,
        toneDecaySeconds: Double = 0.04, noiseHz: Double = 3_000, noiseQ: Double = 0.7, noiseDecaySeconds: Double = 0.06
    ) -> [Double] {
        let length = Int(seconds * sampleRate)
        var filter = Biquad.bandPass(centerHz: noiseHz, q: noiseQ, sampleRate: sampleRate)
        return (0..<length).map { n in
            let t = Double(n) / sampleRate
            let noise = filter.process(random.bipolar()) * exp(-t / noiseDecaySeconds)
            let tone = toneLevel * sin(2 * Double.pi * toneHz * t) * exp(-t / toneDecaySeconds)
            return (noise + tone) * attack(n, frames: 24) * fadeOut(n, length: length, fadeFrames: length / 10)
        }
    }

    /// High-passed noise (hi-hats).
    func hat(random: inout SeededRandom, seconds: Double, decaySeconds: Double, cutoffHz: Double = 7_000, attackFrames: Int = 8)
        -> [Double]
    {
        let length = Int(seconds * sampleRate)
        var filter = Biquad.highPass(cutoffHz: cutoffHz, q: 0.9, sampleRate: sampleRate)
        return (0..<length).map { n in
            let t = Double(n) / sampleRate
            return filter.process(random.bipolar()) * exp(-t / decaySeconds) * attack(n, frames: attackFrames)
                * fadeOut(n, length: length, fadeFrames: length / 10)
        }
    }

    /// Metal (cymbals, bell, tambourine): `partials` inharmonic sines spread log-uniformly over
    /// `band`, each with its own decay around `decaySeconds`, plus high-passed noise (the wash).
    func metal(
        random: inout SeededRandom, seconds: Double, decaySeconds: Double, partials: Int, band: ClosedRange<Double>,
        noiseLevel: Double, noiseCutoffHz: Double
    ) -> [Double] {
        let length = Int(seconds * sampleRate)
        let tones = (0..<partials).map { _ in
            (hz: band.lowerBound * pow(band.upperBound / band.lowerBound, 0.5 + 0.5 * random.bipolar()),
             phase: Double.pi * random.bipolar(), decay: decaySeconds * (0.6 + 0.4 * random.bipolar()))
        }
        var filter = Biquad.highPass(cutoffHz: noiseCutoffHz, q: 0.7, sampleRate: sampleRate)
        let toneLevel = 1 / Double(partials).squareRoot()
        return (0..<length).map { n in
            let t = Double(n) / sampleRate
            var value = noiseLevel * filter.process(random.bipolar()) * exp(-t / decaySeconds)
            for tone in tones { value += toneLevel * sin(2 * Double.pi * tone.hz * t + tone.phase) * exp(-t / tone.decay) }
            return value * attack(n, frames: 8) * fadeOut(n, length: length, fadeFrames: length / 10)
        }
    }

    /// A hand clap: four quick bursts of band-passed noise, the last one ringing into a short tail.
    func clap(random: inout SeededRandom) -> [Double] {
        let length = Int(0.35 * sampleRate)
        var filter = Biquad.bandPass(centerHz: 1_200, q: 1.4, sampleRate: sampleRate)
        let bursts = [0.0, 0.009, 0.019, 0.031]
        return (0..<length).map { n in
            let t = Double(n) / sampleRate
            let envelope = bursts.map { start in
                t < start ? 0 : exp(-(t - start) / (start == bursts.last ? 0.07 : 0.004))
            }.reduce(0, +)
            return filter.process(random.bipolar()) * envelope * attack(n, frames: 8) * fadeOut(n, length: length, fadeFrames: length / 10)
        }
    }

    /// A cowbell: two square-ish tones (fundamental + third harmonic) a fifth-and-a-bit apart.
    func cowbell() -> [Double] {
        let length = Int(0.35 * sampleRate)
        return (0..<length).map { n in
            let t = Double(n) / sampleRate
            let value = [562.0, 845.0].map { hz in sin(2 * Double.pi * hz * t) + sin(6 * Double.pi * hz * t) / 3 }.reduce(0, +)
            return value * (0.7 * exp(-t / 0.02) + 0.3 * exp(-t / 0.12)) * attack(n, frames: 16)
                * fadeOut(n, length: length, fadeFrames: length / 10)
        }
    }
}
