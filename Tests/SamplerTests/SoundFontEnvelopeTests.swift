import AudioTestSupport
import DSP
import MIDI
import Sampler
import Testing

/// The volume envelope, exclusive classes, re-strikes, the minimum note length and sample mode 3
/// of SoundFont voices, as FluidSynth 2.3 renders them (times are whole 64-frame blocks there).
@Suite struct SoundFontEnvelopeTests {
    let rate = soundFontTestRate

    func play(_ zones: [SamplerZone], frames: Int, events: [At]) throws -> (Rendered, SamplerInstrument) {
        let sampler = soundFontInstrument(try soundFontProgram(zones))
        return (render(sampler, frames: frames, blockSize: 64, events: [At(0, controlChange(7, 127))] + events), sampler)
    }

    /// Release 0 tc: 96 dB per second, so −24 dB a quarter second after the note-off [chk].
    @Test func releaseFallsNinetySixDecibelsPerStatedTime() throws {
        let zone = soundFontZone(try constantSoundFontWaveform(), generators: [SF2Generator.volEnvRelease: 0])
        let off = 4_410
        let (out, sampler) = try play([zone], frames: off + 66_150, events: [At(0, noteOn(60)), At(off, noteOff(60))])
        let held = decibels(out.left[off - 1])
        let quarter = decibels(out.left[off + 11_025])
        #expect(abs(held - quarter - 24) < 0.3)
        // FluidSynth's release is 1 + ⌊44100/64⌋ = 690 blocks: over after 44160 frames (−96 dB).
        #expect(out.left[off + 44_160 + 64] == 0)
        #expect(sampler.isSilent)
    }

    /// Attack 0 tc (1 s): linear in amplitude, half level half-way.
    @Test func attackIsLinearInAmplitude() throws {
        let zone = soundFontZone(try constantSoundFontWaveform(), generators: [SF2Generator.volEnvAttack: 0])
        let (out, _) = try play([zone], frames: 66_150, events: [At(0, noteOn(60))])
        let full = out.left[60_000]
        // 690 blocks of 64 frames.
        #expect(abs(out.left[22_080] / full - 0.5) < 0.01)
        #expect(abs(out.left[44_160] / full - 1) < 0.001)
    }

    /// Decay 0 tc to sustain 480 cB: linear in dB (96 dB/s), reaching −46.1 dB after 0.48 s.
    @Test func decayIsLinearInDecibels() throws {
        let zone = soundFontZone(try constantSoundFontWaveform(), generators: [SF2Generator.volEnvDecay: 0, SF2Generator.volEnvSustain: 480])
        let (out, _) = try play([zone], frames: 44_100, events: [At(0, noteOn(60))])
        let peak = decibels(out.left[130])
        #expect(abs(peak - decibels(out.left[11_025 + 128]) - 24) < 0.3)
        #expect(abs(peak - decibels(out.left[40_000]) - 46.08) < 0.3)
    }

    /// Hold and decay scale with the key: keynumToVolEnvDecay 100 halves the decay an octave up.
    @Test func keyScalesTheDecay() throws {
        let zone = soundFontZone(
            try constantSoundFontWaveform(),
            generators: [SF2Generator.volEnvDecay: 0, SF2Generator.volEnvSustain: 1000, SF2Generator.keyToVolEnvDecay: 100])
        let (low, _) = try play([zone], frames: 44_100, events: [At(0, noteOn(60))])
        let (high, _) = try play([zone], frames: 44_100, events: [At(0, noteOn(72))])
        // After 0.25 s: key 60 is 24 dB down, key 72 (decay 0.5 s) 48 dB.
        #expect(abs(decibels(low.left[128]) - decibels(low.left[11_025 + 128]) - 24) < 0.5)
        #expect(abs(decibels(high.left[128]) - decibels(high.left[11_025 + 128]) - 48) < 0.5)
    }

    /// Exclusive class: the closed hi-hat (42) releases the open one (46) at −200 tc (96 dB in
    /// 0.89 s, whatever its own release); without a class both ring on.
    @Test(arguments: [(1.0, 1), (0.0, 2)])
    func exclusiveClassChokesTheOpenHiHat(exclusiveClass: Double, voicesLeft: Int) throws {
        let wave = try constantSoundFontWaveform()
        let generators = [SF2Generator.exclusiveClass: exclusiveClass, SF2Generator.volEnvRelease: 4000]
        let zones = [soundFontZone(wave, keys: 42...42, generators: generators), soundFontZone(wave, keys: 46...46, generators: generators)]
        let strike = 4_410
        let (out, sampler) = try play(zones, frames: strike + 44_100, events: [At(0, noteOn(46)), At(strike, noteOn(42))])
        #expect(sampler.activeVoiceCount == voicesLeft)
        if voicesLeft == 1 {
            // Half-way through the choke (0.44 s): the open hi-hat is 48 dB down under the closed one.
            let closedAlone = out.left[strike + 44_000]
            #expect(abs(out.left[strike + 19_500] / closedAlone - 1) < 0.01)
        }
    }

    /// A second note-on of a sounding key releases the first voice even with the pedal down.
    @Test func restrikeReleasesTheOldVoiceDespiteThePedal() throws {
        let zone = soundFontZone(try constantSoundFontWaveform(), generators: [SF2Generator.volEnvRelease: -2400])
        let (_, sampler) = try play([zone], frames: 44_100, events: [
            At(0, controlChange(64, 127)), At(10, noteOn(60)), At(2_000, noteOff(60)), At(4_000, noteOn(60)),
        ])
        #expect(sampler.activeVoiceCount == 1)
    }

    /// A note-off 1 ms after its note-on sounds 10 ms (FluidSynth's minimum note length).
    @Test func shortNotesLastTheMinimumNoteLength() throws {
        let zone = soundFontZone(try constantSoundFontWaveform(), generators: [SF2Generator.volEnvRelease: -7200])
        let (out, _) = try play([zone], frames: 4_410, events: [At(0, noteOn(60)), At(44, noteOff(60))])
        let held = out.left[300]
        #expect(abs(out.left[400] / held - 1) < 1e-4)  // still held 9 ms in
        #expect(out.left[2_000] < held * 0.5)  // released after
    }

    /// Sample mode 3: the loop plays while the key is held, then the sample plays on to its end
    /// (its tail here is 0.5 while the loop is 1) and the voice ends there, its release unfinished.
    @Test func loopUntilReleaseThenPlaysToTheEnd() throws {
        let frames = 8_192
        let data = (0..<frames).map { $0 < 6_000 ? Float(1) : Float(0.5) }
        let wave = try SamplerWaveform(channels: [data], sampleRate: soundFontTestRate)
        let zone = soundFontZone(
            wave, loop: SamplerLoop(startFrame: 1_000, endFrame: 5_000), generators: [SF2Generator.volEnvRelease: 8000], loopsUntilRelease: true)
        let off = 20_000
        let (out, sampler) = try play([zone], frames: off + 10_000, events: [At(0, noteOn(60)), At(off, noteOff(60))])
        let held = out.left[off - 1]
        // Still looping at 20000 frames (the sample has 8192); after the release it reaches the tail.
        #expect(!out.left[1_000..<off].contains { abs($0 / held - 0.5) < 0.01 })
        let tail = out.left[off...].contains { abs($0 / held - 0.5) < 0.01 }
        #expect(tail)
        #expect(sampler.isSilent)
    }
}
