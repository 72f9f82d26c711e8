import AudioTestSupport
import DSP
import Sampler
import SamplerLoading
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// How a preset's envelopes, trigger mode, connections and globals shape what plays. Uses the
/// built-in sine (no files needed) at root key 69.
@Suite struct PresetArticulationTests {
    let sineZone = PresetText.zone(id: 0, waveform: -2, "<key>loop enabled</key><true/><key>root key</key><integer>69</integer>")

    func build(layerExtra: String = "", top: String = "") throws -> SamplerLoadResult {
        let text = PresetText.preset(layers: PresetText.layer(extra: layerExtra, zones: sineZone), top: top)
        return try buildPreset(text, in: TemporaryDirectory())
    }

    func steadyLevelDecibels(_ result: SamplerLoadResult, velocity: Int) -> Double {
        let out = render(instrument(playing: result.program), frames: 14_400, events: [At(0, noteOn(69, velocity))])
        return Measure.decibels(Measure.rms(Array(out.left[4_800...])))
    }

    func connection(id: Int, source: Int, destination: Int, extra: String = "") -> String {
        """
        <dict><key>ID</key><integer>\(id)</integer><key>control</key><integer>0</integer>
        <key>destination</key><integer>\(destination)</integer><key>enabled</key><true/>
        <key>source</key><integer>\(source)</integer><key>transform</key><integer>1</integer>\(extra)</dict>
        """
    }

    @Test func defaultConnectionsGiveTheConcaveVelocityCurve() throws {
        let result = try build()
        let difference = steadyLevelDecibels(result, velocity: 64) - steadyLevelDecibels(result, velocity: 127)
        #expect(abs(difference - 40 * log10(64.0 / 127)) < 0.5)
    }

    @Test func explicitConnectionsWithoutVelocityIgnoreVelocityAndWarnAboutTheRest() throws {
        let connections = "<key>Connections</key><array>"
            + connection(id: 0, source: 300, destination: 0x30B0_0000, extra: "<key>scale</key><real>12800</real>")
            + connection(id: 1, source: 74, destination: 0x30C0_0000, extra: "<key>scale</key><real>1000</real>")
            + "</array>"
        let result = try build(layerExtra: connections)
        let difference = steadyLevelDecibels(result, velocity: 32) - steadyLevelDecibels(result, velocity: 127)
        #expect(abs(difference) < 0.05)
        #expect(result.warnings.contains { $0.contains("connection 1") && $0.contains("not applied") })
    }

    /// CC74 → cutoff (−2400…+2400 cents around 1 kHz): at 127 the cutoff is 4 kHz.
    @Test func controllerToCutoffConnectionMovesTheFilter() throws {
        let filter = "<key>Filters</key><dict><key>ID</key><integer>0</integer><key>cutoff</key><real>1000</real><key>enabled</key><true/><key>resonance</key><real>0</real></dict>"
        let connections = "<key>Connections</key><array>"
            + connection(id: 0, source: 300, destination: 0x30B0_0000, extra: "<key>scale</key><real>12800</real>")
            + connection(id: 1, source: 74, destination: 0x4150_0000, extra: "<key>max value</key><real>2400</real><key>min value</key><real>-2400</real>")
            + "</array>"
        let result = try build(layerExtra: filter + connections)
        #expect(!result.warnings.contains { $0.contains("connection 1") })
        // Key 81 plays the 440 Hz sine an octave up: 880 Hz.
        let out = render(instrument(playing: result.program), frames: 24_000, events: [
            At(0, controlChange(74, 127)), At(0, noteOn(81)),
        ])
        let level = Measure.amplitude(Array(out.left[4_800...]), at: 880, sampleRate: testSampleRate)
        let expected = BiquadCoefficients.design(.lowPass, cutoffHz: 4_000, resonanceDecibels: 0, sampleRate: testSampleRate)
            .magnitude(atHz: 880, sampleRate: testSampleRate) * Double(centrePanGain)
        #expect(abs(Measure.decibels(level) - Measure.decibels(expected)) < 0.1)
    }

    @Test func envelopeReleaseIsApplied() throws {
        let result = try build(layerExtra: PresetText.envelope(releaseSeconds: 0.1))
        let sampler = instrument(playing: result.program)
        let out = render(sampler, frames: 19_200, events: [At(0, noteOn(69)), At(4_800, noteOff(69))])
        // Still sounding half-way through the 100 ms release, silent 1 ms after it.
        #expect(Measure.peak(Array(out.left[(4_800 + 2_300)..<(4_800 + 2_500)])) > 0.2)
        #expect(Measure.peak(Array(out.left[(4_800 + 4_850)...])) < 1e-4)
    }

    /// One-shot zones play their sample once to the end (loops are not entered), whatever note-off says.
    @Test func oneShotTriggerModeIgnoresNoteOff() throws {
        let directory = TemporaryDirectory()
        // 0.5 s of tone at 48 kHz.
        try writeSineWAV(to: directory.file("hit.wav"), periodFrames: 100, periods: 240, sampleRate: 48_000)
        let layer = PresetText.layer(
            extra: PresetText.envelope(releaseSeconds: 0.01) + "<key>trigger mode</key><integer>11</integer>",
            zones: PresetText.zone(id: 1, waveform: 1, "<key>root key</key><integer>60</integer>"))
        let result = try buildPreset(
            PresetText.preset(layers: layer, references: PresetText.reference(1, "hit.wav")), in: directory)
        let sampler = instrument(playing: result.program)
        let out = render(sampler, frames: 28_800, events: [At(0, noteOn(60)), At(2_400, noteOff(60))])
        #expect(Measure.peak(Array(out.left[20_000..<23_000])) > 0.3)
        #expect(Measure.peak(Array(out.left[24_100...])) < 1e-4)
        #expect(sampler.isSilent)
    }

    @Test func globalGainAndTuneApply() throws {
        let plain = try build()
        let tuned = try build(top: "<key>gain</key><real>-6</real><key>coarse tune</key><integer>1</integer><key>fine tune</key><real>-50</real>")
        let difference = steadyLevelDecibels(tuned, velocity: 127) - steadyLevelDecibels(plain, velocity: 127)
        #expect(abs(difference - -6) < 0.1)
        let out = render(instrument(playing: tuned.program), frames: 48_000, events: [At(0, noteOn(69))])
        let measured = try #require(Measure.frequency(Array(out.left[4_800...]), sampleRate: testSampleRate))
        #expect(abs(Measure.cents(measured, relativeTo: 440) - 50) < 0.5)
    }
}
