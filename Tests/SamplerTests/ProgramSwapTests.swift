import AudioTestSupport
import Sampler
import SamplerLevels
import Testing

/// Program hand-over through the mailbox: the swap happens on the render side, the old program's
/// voices fade without a click, and the old program comes back to the control side.
@Suite struct ProgramSwapTests {
    @Test func swapFadesOldVoicesAndReturnsTheOldProgram() throws {
        let layer = plainLayer(releaseSeconds: 1)
        let sampler = SamplerInstrument(sampleRate: testSampleRate, maxFrames: 512)
        weak var released: SamplerProgram?
        do {
            let first = SamplerProgram.single(.sineCycle(frequencyHz: 440), rootKey: 69, layer: layer)
            first.buildAllLevels()
            released = first
            sampler.submit(first)
        }
        var out = render(sampler, frames: 4_800, events: [At(0, noteOn(69))])
        let second = SamplerProgram.single(.sineCycle(frequencyHz: 660), rootKey: 69, layer: layer)
        second.buildAllLevels()
        sampler.submit(second)
        #expect(released != nil)
        #expect(!sampler.collectGarbage())  // render side still uses the first program
        out.left += render(sampler, frames: 4_800).left
        #expect(sampler.isSilent)  // the old voice faded in 3 ms
        Measure.expectNoClick(Array(out.left[2_400...]))
        #expect(sampler.collectGarbage())
        #expect(released == nil)
        let next = render(sampler, frames: 24_000, events: [At(0, noteOn(69))])
        let measured = try #require(Measure.frequency(Array(next.left[2_400...]), sampleRate: testSampleRate))
        #expect(abs(Measure.cents(measured, relativeTo: 660)) < 0.5)
    }

    @Test func unplayedSubmissionIsReplacedAndFreed() throws {
        let sampler = SamplerInstrument(sampleRate: testSampleRate, maxFrames: 256)
        weak var weakA: SamplerProgram?
        do {
            let a = SamplerProgram.single(.sineCycle(), rootKey: 69)
            weakA = a
            sampler.submit(a)
        }
        #expect(weakA != nil)
        sampler.submit(SamplerProgram.single(.sineCycle(), rootKey: 69))
        #expect(weakA == nil)
    }

    @Test func noProgramRendersSilence() {
        let sampler = SamplerInstrument(sampleRate: testSampleRate, maxFrames: 256)
        let out = render(sampler, frames: 512, events: [At(0, noteOn(60))])
        #expect(Measure.peak(out.left) == 0)
        #expect(sampler.isSilent)
    }
}
