import AudioTestSupport
import DSP
import Sampler
import Testing

/// The SoundFont voice filter when a modulator moves its Q mid-note: FluidSynth designs the
/// filter anew for the new Q (`fluid_iir_filter_set_q`), so a tone at the cutoff follows it.
@Suite struct SoundFontFilterTests {
    /// A 440 Hz tone through a cutoff of 440 Hz (6900 cents) whose Q CC71 raises by up to 200 cB.
    /// At its cutoff the RBJ low-pass gives q and the voice the passband gain 1/√q: √q in all, so
    /// CC71 0 → 127 (Q 0 → 198.4 cB: q 0.708 → 6.94) raises the tone by 9.9 dB. A filter kept as
    /// designed for the old Q would leave only the new passband gain: 9.9 dB quieter instead.
    @Test func aModulatedQRedesignsTheFilter() throws {
        let cc71ToQ = SF2Modulator(source: 0x0080 | 71, destination: UInt16(SF2Generator.initialFilterQ), amount: 200)
        let zone = soundFontZone(
            SamplerWaveform.sineCycle(frequencyHz: 440), rootKey: 69, generators: [SF2Generator.initialFilterCutoff: 6900],
            modulators: SF2Modulator.fluidSynthDefaults + [cc71ToQ])
        let sampler = soundFontInstrument(try soundFontProgram([zone]))
        let out = render(sampler, frames: 22_050, events: [
            At(0, controlChange(7, 127)), At(0, controlChange(71, 0)), At(1, noteOn(69)), At(11_025, controlChange(71, 127)),
        ])
        let before = Measure.decibels(Measure.rms(out.left[6_000..<11_000]))
        let after = Measure.decibels(Measure.rms(out.left[17_000..<22_000]))
        let expected = Measure.decibels((6.94 / 0.708).squareRoot())
        #expect(abs(after - before - expected) < 0.3, "CC71 127 changed the tone at the cutoff by \(after - before) dB, expected \(expected)")
    }
}
