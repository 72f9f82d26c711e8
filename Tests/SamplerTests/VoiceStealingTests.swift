import AudioTestSupport
import Sampler
import Testing

/// Polyphony limit and stealing: stolen voices fade out while their replacements start.
@Suite struct VoiceStealingTests {
    func program(voiceCount: Int) -> SamplerProgram {
        // −24 dB per voice so 2 × 8 overlapping voices stay well below full scale.
        SamplerProgram.single(
            .sineCycle(frequencyHz: 440), rootKey: 69, layer: plainLayer(attackSeconds: 0.01, releaseSeconds: 0.3),
            globals: SamplerGlobals(gainDecibels: -24, voiceCount: voiceCount))
    }

    @Test func twicePolyphonyInOneBlockNeverSteps() throws {
        let polyphony = 8
        let sampler = instrument(playing: program(voiceCount: polyphony), maxVoices: 16)
        var events = (0..<polyphony).map { At(0, noteOn(48 + $0)) }
        // 2 × the limit arrive together in one block while the first chord sustains.
        events += (0..<2 * polyphony).map { At(9_600, noteOn(60 + $0)) }
        let out = render(sampler, frames: 19_200, events: events)
        Measure.expectNoClick(out.left)
        Measure.expectNoClick(out.right)
        #expect(sampler.activeVoiceCount == polyphony)
    }

    /// A flood: 300 note-ons in one block on a 4-voice budget. Stolen voices fade, but no more of
    /// them than the budget (the quietest is cut for the next): at most 8 voices render, not the pool
    /// of 128 slots (which made a live MIDI flood overload the audio thread in the kernel rig).
    @Test func aFloodOfNoteOnsFadesNoMoreVoicesThanTheBudget() throws {
        let sampler = instrument(playing: program(voiceCount: 64), maxVoices: 64)
        sampler.polyphonyLimit = 4
        let events = (0..<300).map { At(0, noteOn(20 + $0 % 100)) }
        let out = render(sampler, frames: 64, blockSize: 64, events: events)
        #expect((4...8).contains(sampler.activeVoiceCount), "\(sampler.activeVoiceCount) voices sounding")
        #expect(Measure.peak(out.left) > 0, "level floor: the flood sounds")
        _ = render(sampler, frames: 4_800)
        #expect(sampler.activeVoiceCount == 4)
    }

    @Test func activeVoicesNeverExceedThePoolAndSettleAtTheLimit() throws {
        let sampler = instrument(playing: program(voiceCount: 4), maxVoices: 8)
        let events = (0..<40).map { At($0 * 100, noteOn(40 + $0)) }
        _ = render(sampler, frames: 9_600, events: events)
        #expect(sampler.activeVoiceCount == 4)
    }

    @Test func polyphonyOverrideWins() throws {
        let sampler = instrument(playing: program(voiceCount: 32), maxVoices: 16)
        sampler.polyphonyLimit = 2
        _ = render(sampler, frames: 4_800, events: (0..<6).map { At(0, noteOn(60 + $0)) })
        #expect(sampler.effectivePolyphony == 2)
        #expect(sampler.activeVoiceCount == 2)
    }

    @Test func releasedVoiceIsStolenBeforeAHeldOne() throws {
        let sampler = instrument(playing: program(voiceCount: 2), maxVoices: 4)
        // 0.85 s of tail separates the partials 2 semitones apart (Hann resolution ~2.4 Hz).
        // 60 held, 62 released (long release still sounding), then 64 arrives: 62 must go.
        let out = render(sampler, frames: 48_000, events: [
            At(0, noteOn(60)), At(0, noteOn(62)), At(2_400, noteOff(62)), At(4_800, noteOn(64)),
        ])
        let tail = Array(out.left[7_200...])
        let f60 = Measure.noteFrequency(60), f62 = Measure.noteFrequency(62)
        #expect(Measure.amplitude(tail, at: f60, sampleRate: testSampleRate) > 0.01)
        #expect(Measure.amplitude(tail, at: f62, sampleRate: testSampleRate) < 1e-3)
    }

    @Test func restruckKeyFadesTheOldVoice() throws {
        let sampler = instrument(playing: program(voiceCount: 8))
        let out = render(sampler, frames: 9_600, events: [At(0, noteOn(60)), At(4_801, noteOn(60))])
        #expect(sampler.activeVoiceCount == 1)
        Measure.expectNoClick(Array(out.left[2_400...]))
    }
}
