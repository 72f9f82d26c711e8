import AudioTestSupport
import Testing
import MicEffects

/// The engine splits blocks at event offsets, so the chain must sound the same for any split.
@Suite struct BlockSizeInvarianceTests {
    let fs = ChainHarness.sampleRate

    func render(_ kind: MicEffectKind, blockFrames: Int, input: [Float]) -> [Float] {
        let chain = ChainHarness.chain(kind, maxFrames: 512) {
            $0.setRingFrequencyHz(321)
            $0.setDelaySeconds(0.0123)
            $0.setDelayFeedback(0.7)
            $0.setDelayMix(0.6)
            $0.setAveragePoints(17)
            $0.setLowpassCutoffHz(1_234)
            $0.setPitchShiftSemitones(-3)
            $0.setMix(0.8)
        }
        return ChainHarness.run(chain, left: input, blockFrames: blockFrames).left
    }

    @Test(arguments: MicEffectKind.allCases)
    func outputDoesNotDependOnBlockSize(kind: MicEffectKind) {
        let input = Measure.harmonicTone(233, harmonics: 5, count: 12_000, sampleRate: fs)
        let reference = render(kind, blockFrames: 64, input: input)
        for blockFrames in [1, 3, 100, 512] {
            let out = render(kind, blockFrames: blockFrames, input: input)
            let worst = zip(out, reference).map { abs($0 - $1) }.max() ?? 0
            // Only Float summation order may differ (the running-sum refresh lands on other frames).
            #expect(worst < 1e-5, "\(kind) at \(blockFrames)-frame blocks: \(worst)")
        }
    }

    @Test(arguments: MicEffectKind.allCases)
    func resetMakesOutputRepeatable(kind: MicEffectKind) {
        let input = Measure.harmonicTone(150, harmonics: 3, count: 8_000, sampleRate: fs)
        let chain = ChainHarness.chain(kind) { $0.setDelaySeconds(0.05); $0.setDelayFeedback(0.5) }
        let first = ChainHarness.run(chain, left: input).left
        chain.reset()
        let second = ChainHarness.run(chain, left: input).left
        #expect(first == second)
    }
}
