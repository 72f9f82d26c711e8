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
        let voices = DrumVoices(sampleRate: sampleRate)
        let kickSteps = [0, 10, 16, 22, 26]
        let snareSteps = [4, 12, 20, 28, 31]
        for step in kickSteps { loop.mix(voices.kick(), at: step * framesPerSixteenth, gain: 1.0) }
        for step in snareSteps {
            loop.mix(voices.snare(random: &random), at: step * framesPerSixteenth, gain: step == 31 ? 0.35 : 0.7)
        }
        // Hats on every eighth off-beat and on the sixteenths of bar 2's last beat; none on frame 0,
        // so the loop starts from the smooth kick attack.
        let hatSteps = Array(stride(from: 2, to: 32, by: 4)) + [1, 9, 17, 25, 29, 30]
        for step in hatSteps {
            // Closed (40 ms decay), or open (150 ms) on the bars' last off-beats.
            let open = step % 8 == 6
            let hat = voices.hat(random: &random, seconds: open ? 0.3 : 0.1, decaySeconds: open ? 0.15 : 0.03)
            loop.mix(hat, at: step * framesPerSixteenth, gain: step % 4 == 2 ? 0.35 : 0.18)
        }
        return loop.normalized(peak: 0.89)
    }
}
