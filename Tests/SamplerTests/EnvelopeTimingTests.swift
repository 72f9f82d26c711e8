import AudioTestSupport
import Sampler
import Testing

/// Envelope times measured on the constant waveform, whose output is the envelope itself.
@Suite struct EnvelopeTimingTests {
    let timingToleranceSeconds = 0.001

    func firstIndex(after start: Int, in x: [Float], where predicate: (Float) -> Bool) -> Int? {
        x[start...].firstIndex(where: predicate)
    }

    @Test(arguments: [0.05, 0.2, 0.5])
    func releaseEndsAfterTheReleaseTime(releaseSeconds: Double) throws {
        let program = SamplerProgram.single(try constantWaveform(), rootKey: 60, layer: plainLayer(releaseSeconds: releaseSeconds))
        let sampler = instrument(playing: program)
        let noteOffFrame = 4_800
        let out = render(sampler, frames: noteOffFrame + Int(releaseSeconds * testSampleRate) + 4_800, events: [
            At(0, noteOn(60)), At(noteOffFrame, noteOff(60)),
        ])
        let sustain = out.left[noteOffFrame - 1]
        // Linear release: half level at half time, silence (−80 dB) at the release time.
        let half = try #require(firstIndex(after: noteOffFrame, in: out.left) { $0 <= sustain / 2 })
        let end = try #require(firstIndex(after: noteOffFrame, in: out.left) { $0 <= sustain * 1e-4 })
        #expect(abs(Double(half - noteOffFrame) / testSampleRate - releaseSeconds / 2) < timingToleranceSeconds)
        #expect(abs(Double(end - noteOffFrame) / testSampleRate - releaseSeconds) < timingToleranceSeconds)
        #expect(sampler.isSilent)
    }

    @Test func attackReachesFullLevelAfterTheAttackTime() throws {
        let attackSeconds = 0.1
        let program = SamplerProgram.single(try constantWaveform(), rootKey: 60, layer: plainLayer(attackSeconds: attackSeconds))
        let out = render(instrument(playing: program), frames: 9_600, events: [At(0, noteOn(60))])
        let full = out.left[9_000]
        let half = try #require(out.left.firstIndex { $0 >= full / 2 })
        let top = try #require(out.left.firstIndex { $0 >= full * 0.999 })
        #expect(abs(Double(half) / testSampleRate - attackSeconds / 2) < timingToleranceSeconds)
        #expect(abs(Double(top) / testSampleRate - attackSeconds) < timingToleranceSeconds)
    }

    @Test func noteOffHasNoStep() throws {
        let program = SamplerProgram.single(.sineCycle(frequencyHz: 440), rootKey: 69, layer: plainLayer(releaseSeconds: 0.01))
        let out = render(instrument(playing: program), frames: 9_600, events: [At(0, noteOn(69)), At(4_801, noteOff(69))])
        Measure.expectNoClick(Array(out.left[2_400...]))
    }
}
