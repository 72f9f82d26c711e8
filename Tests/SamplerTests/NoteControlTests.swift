import AudioTestSupport
import MIDI
import Sampler
import Testing

/// Sustain pedal, one-shot zones, CC120 / CC121 / CC123.
@Suite struct NoteControlTests {
    let silence = 1e-4

    func constantProgram(releaseSeconds: Double = 0.02, oneShot: Bool = false, loop: Bool = true) throws -> SamplerProgram {
        var layer = plainLayer(releaseSeconds: releaseSeconds)
        layer.isOneShot = oneShot
        var zone = SamplerZone(waveform: try constantWaveform(frames: 24_000), rootKey: 60)
        if !loop { zone.loop = nil }
        return try SamplerProgram(layers: [layer], zones: [zone])
    }

    @Test func sustainPedalHoldsReleasedKeysUntilLifted() throws {
        let out = render(instrument(playing: try constantProgram()), frames: 19_200, events: [
            At(0, controlChange(MIDIController.sustainPedal, 127)), At(100, noteOn(60)),
            At(2_400, noteOff(60)), At(9_600, controlChange(MIDIController.sustainPedal, 0)),
        ])
        #expect(out.left[9_000] > 0.5)  // still held after the key went up
        #expect(Measure.peak(Array(out.left[(9_600 + 1_200)...])) < silence)  // released 20 ms after the pedal
    }

    @Test func withoutPedalNoteOffReleases() throws {
        let out = render(instrument(playing: try constantProgram()), frames: 9_600, events: [
            At(0, noteOn(60)), At(2_400, noteOff(60)),
        ])
        #expect(Measure.peak(Array(out.left[(2_400 + 1_200)...])) < silence)
    }

    @Test func oneShotIgnoresNoteOffAndPlaysToTheEnd() throws {
        // 24 000 frames = 0.5 s of sample, played once; note-off after 50 ms changes nothing.
        let sampler = instrument(playing: try constantProgram(oneShot: true))
        let out = render(sampler, frames: 28_800, events: [At(0, noteOn(60)), At(2_400, noteOff(60))])
        #expect(out.left[23_000] > 0.5)
        #expect(Measure.peak(Array(out.left[24_100...])) < silence)
        #expect(sampler.isSilent)
    }

    @Test func unloopedSampleEndsTheVoice() throws {
        let sampler = instrument(playing: try constantProgram(loop: false))
        let out = render(sampler, frames: 28_800, events: [At(0, noteOn(60))])
        #expect(Measure.peak(Array(out.left[24_100...])) < silence)
        #expect(sampler.activeVoiceCount == 0)
    }

    /// 5 ms fade plus ~2 ms for the envelope's 0.25 ms corner smoothing to die away.
    @Test func allSoundOffFadesWithin5msEvenWithThePedalDown() throws {
        let sampler = instrument(playing: try constantProgram(releaseSeconds: 2))
        let out = render(sampler, frames: 9_600, events: [
            At(0, controlChange(MIDIController.sustainPedal, 127)), At(0, noteOn(60)), At(0, noteOn(64)),
            At(4_800, controlChange(MIDIController.allSoundOff, 0)),
        ])
        #expect(Measure.peak(Array(out.left[(4_800 + 336)...])) < silence)
        #expect(sampler.isSilent)
    }

    @Test func allNotesOffReleasesHeldKeys() throws {
        let sampler = instrument(playing: try constantProgram(releaseSeconds: 0.02))
        let out = render(sampler, frames: 9_600, events: [
            At(0, noteOn(60)), At(0, noteOn(64)), At(4_800, controlChange(MIDIController.allNotesOff, 0)),
        ])
        #expect(out.left[4_700] > 1)  // two voices
        // The 20 ms release runs its course (not a cut).
        #expect(out.left[4_800 + 480] > 0.3)
        #expect(Measure.peak(Array(out.left[(4_800 + 1_200)...])) < silence)
    }

    @Test func resetAllControllersRecentresBendAndLiftsThePedal() throws {
        let program = SamplerProgram.single(.sineCycle(frequencyHz: 440), rootKey: 69, layer: plainLayer(releaseSeconds: 0.02))
        let out = render(instrument(playing: program), frames: 72_000, events: [
            At(0, .pitchBend(channel: 0, value: 8191)), At(0, controlChange(MIDIController.sustainPedal, 127)),
            At(0, noteOn(69)), At(100, noteOff(69)), At(4_800, controlChange(MIDIController.resetAllControllers, 0)),
        ])
        #expect(Measure.peak(Array(out.left[(4_800 + 1_200)...])) < silence)
        let bent = try #require(Measure.frequency(Array(out.left[200..<4_700]), sampleRate: testSampleRate, guess: 494))
        #expect(abs(Measure.cents(bent, relativeTo: Measure.noteFrequency(71))) < 1)
    }
}
