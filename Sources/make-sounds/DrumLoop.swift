import Glibc

/// `beat.wav`: two bars of drums at 120 BPM (exactly 4.0 s), synthesized: a pitch-swept sine kick,
/// a noise + tone snare and high-passed noise hats. Every hit has a finite length ending in exact
/// silence, and mixing wraps around, so the loop end flows into its start without a seam.
enum DrumLoop {
    static let sampleRate = 48_000.0
    static let framesPerSixteenth = 6_000  // 120 BPM: a quarter is 0.5 s = 24 000 frames
    static let sixteenthsPerLoop = 32

    static func render(seed: UInt64) -> [Float] {
        var loop = LoopBuffer(frames: framesPerSixteenth * sixteenthsPerLoop)
        var random = SeededRandom(seed: seed)
        let kickSteps = [0, 10, 16, 22, 26]
        let snareSteps = [4, 12, 20, 28, 31]
        for step in kickSteps { loop.mix(kick(), at: step * framesPerSixteenth, gain: 1.0) }
        for step in snareSteps {
            loop.mix(snare(random: &random), at: step * framesPerSixteenth, gain: step == 31 ? 0.35 : 0.7)
        }
        // Hats on every eighth off-beat and on the sixteenths of bar 2's last beat; none on frame 0,
        // so the loop starts from the smooth kick attack.
        let hatSteps = Array(stride(from: 2, to: 32, by: 4)) + [1, 9, 17, 25, 29, 30]
        for step in hatSteps {
            loop.mix(hat(random: &random, open: step % 8 == 6), at: step * framesPerSixteenth, gain: step % 4 == 2 ? 0.35 : 0.18)
        }
        return loop.normalized(peak: 0.89)
    }

    /// A sine swept from 160 Hz down to 50 Hz with a short click-free attack, 0.45 s long.
    static func kick() -> [Double] {
        let length = Int(0.45 * sampleRate)
        var phase = 0.0
        return (0..<length).map { n in
            let t = Double(n) / sampleRate
            let frequency = 50 + 110 * exp(-t / 0.03)
            phase += 2 * Double.pi * frequency / sampleRate
            return sin(phase) * exp(-t / 0.16) * attack(n, frames: 96) * fadeOut(n, length: length, fadeFrames: length / 10)
        }
    }

    /// Band-passed noise plus a 190 Hz tone, 0.25 s.
    static func snare(random: inout SeededRandom) -> [Double] {
        let length = Int(0.25 * sampleRate)
        var filter = Biquad.bandPass(centerHz: 3_000, q: 0.7, sampleRate: sampleRate)
        return (0..<length).map { n in
            let t = Double(n) / sampleRate
            let noise = filter.process(random.bipolar()) * exp(-t / 0.06)
            let tone = 0.5 * sin(2 * Double.pi * 190 * t) * exp(-t / 0.04)
            return (noise + tone) * attack(n, frames: 24) * fadeOut(n, length: length, fadeFrames: length / 10)
        }
    }

    /// High-passed noise: closed (40 ms decay) or open (150 ms).
    static func hat(random: inout SeededRandom, open: Bool) -> [Double] {
        let length = Int((open ? 0.3 : 0.1) * sampleRate)
        var filter = Biquad.highPass(cutoffHz: 7_000, q: 0.9, sampleRate: sampleRate)
        let decay = open ? 0.15 : 0.03
        return (0..<length).map { n in
            let t = Double(n) / sampleRate
            return filter.process(random.bipolar()) * exp(-t / decay) * attack(n, frames: 8) * fadeOut(n, length: length, fadeFrames: length / 10)
        }
    }
}
