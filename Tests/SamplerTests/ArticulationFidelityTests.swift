import AudioTestSupport
import DSP
import MIDI
import Sampler
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Filter types, envelope curves and preset LFO routing as the voice plays them, and the warnings
/// for what is still not played.
@Suite struct ArticulationFidelityTests {
    /// A tone at `toneHz` through the layer filter comes out at the analytic biquad response
    /// (within 0.05 dB), for every kind and resonance 0/6/12 dB.
    @Test(arguments: [BiquadCoefficients.Kind.lowPass, .highPass, .bandPass], [0.0, 6.0, 12.0])
    func filterKindsMatchTheAnalyticResponse(kind: BiquadCoefficients.Kind, resonance: Double) throws {
        for toneHz in [250.0, 1_000.0, 2_000.0, 6_000.0] {
            var layer = plainLayer()
            layer.filter = SamplerFilterSettings(isEnabled: true, kind: kind, cutoffHz: 1_000, resonanceDecibels: resonance)
            var zone = SamplerZone(waveform: .sineCycle(frequencyHz: toneHz), rootKey: 69)
            zone.pitchTracking = false
            let out = render(instrument(playing: try SamplerProgram(layers: [layer], zones: [zone])), frames: 19_200,
                             events: [At(0, noteOn(69))])
            let level = Measure.amplitude(Array(out.left[4_800...]), at: toneHz, sampleRate: testSampleRate)
            let expected = BiquadCoefficients.design(kind, cutoffHz: 1_000, resonanceDecibels: resonance, sampleRate: testSampleRate)
                .magnitude(atHz: toneHz, sampleRate: testSampleRate) * Double(centrePanGain)
            #expect(abs(Measure.decibels(level) - Measure.decibels(expected)) < 0.05, "\(kind) \(resonance) dB at \(toneHz) Hz")
        }
    }

    /// The preset's filter `type` picks the kind: 41 is a high-pass (a 250 Hz tone under a 1 kHz
    /// cutoff loses 24 dB instead of passing).
    @Test func presetFilterTypeSelectsTheKind() throws {
        let filter = "<key>Filters</key><dict><key>ID</key><integer>0</integer><key>cutoff</key><real>1000</real>"
            + "<key>enabled</key><true/><key>resonance</key><real>0</real><key>type</key><integer>41</integer></dict>"
        let zone = PresetText.zone(id: 0, waveform: -2, "<key>loop enabled</key><true/><key>root key</key><integer>69</integer><key>pitch tracking</key><false/>")
        let result = try buildPreset(PresetText.preset(layers: PresetText.layer(extra: filter, zones: zone)), in: TemporaryDirectory())
        #expect(result.program.layers[0].filter.kind == .highPass)
        #expect(!result.warnings.contains { $0.contains("filter type") })
    }

    /// Each curve, sampled at several points of a 1 s attack and a 1 s release from 0.5, against
    /// its formula (`EnvelopeCurve.shape`), within 1 % of full scale, on the voice's output.
    @Test(arguments: EnvelopeCurve.allCases)
    func envelopeCurvesFollowTheirFormula(curve: EnvelopeCurve) throws {
        var layer = plainLayer()
        layer.ampEnvelope = EnvelopeSettings(
            attackSeconds: 1, decaySeconds: 1, sustainLevel: 0.5, releaseSeconds: 1,
            attackCurve: curve, decayCurve: curve, releaseCurve: curve)
        layer.lfo = nil
        let program = SamplerProgram.single(try constantWaveform(), rootKey: 60, layer: layer)
        let out = render(instrument(playing: program), frames: 4 * 48_000, events: [At(0, noteOn(60)), At(2 * 48_000 + 4_800, noteOff(60))]).left
        func level(_ seconds: Double) -> Double { Double(out[Int(seconds * testSampleRate)] / centrePanGain) }
        for p in [0.1, 0.25, 0.5, 0.75, 0.9] {
            #expect(abs(level(p) - curve.shape(p)) < 0.01, "attack at \(p)")
            #expect(abs(level(1 + p) - (1 - 0.5 * curve.shape(p))) < 0.01, "decay at \(p)")
            #expect(abs(level(2.1 + p) - 0.5 * (1 - curve.shape(p))) < 0.01, "release at \(p)")
        }
        // The curves really differ: convex is over the line half-way up, concave under it.
        switch curve {
        case .linear: #expect(abs(level(0.5) - 0.5) < 0.01)
        case .convex: #expect(level(0.5) > 0.85)
        case .concave: #expect(level(0.5) < 0.15)
        }
    }

    /// AU's default attack (`curve` 22) is played convex, decay/release 20 linear.
    @Test func presetCurveCodesMap() throws {
        let envelope = """
            <key>Envelopes</key><array><dict><key>ID</key><integer>0</integer><key>Stages</key><array>
            <dict><key>curve</key><integer>22</integer><key>stage</key><integer>1</integer><key>time</key><real>0.5</real></dict>
            <dict><key>curve</key><integer>21</integer><key>stage</key><integer>3</integer><key>time</key><real>0.5</real></dict>
            <dict><key>stage</key><integer>4</integer><key>level</key><real>0.5</real></dict>
            <dict><key>curve</key><integer>20</integer><key>stage</key><integer>5</integer><key>time</key><real>0.5</real></dict>
            </array><key>enabled</key><true/></dict></array>
            """
        let zone = PresetText.zone(id: 0, waveform: -2, "<key>loop enabled</key><true/><key>root key</key><integer>69</integer>")
        let result = try buildPreset(PresetText.preset(layers: PresetText.layer(extra: envelope, zones: zone)), in: TemporaryDirectory())
        let amp = result.program.layers[0].ampEnvelope
        #expect(amp.attackCurve == .convex && amp.decayCurve == .concave && amp.releaseCurve == .linear)
    }

    /// A preset's square LFO → amp gain (±6 dB, no controller) plays: the level alternates by
    /// ±6 dB at the LFO rate after its delay. (Before: "not applied", a steady level.)
    @Test func presetLFOToGainPlays() throws {
        let lfo = "<key>LFOs</key><array><dict><key>ID</key><integer>0</integer><key>delay</key><real>0.1</real>"
            + "<key>enabled</key><true/><key>rate</key><real>2</real><key>waveform</key><integer>28</integer></dict></array>"
        let connections = "<key>Connections</key><array>"
            + "<dict><key>ID</key><integer>0</integer><key>control</key><integer>0</integer><key>destination</key><integer>\(0x5010_0000)</integer>"
            + "<key>enabled</key><true/><key>max value</key><real>6</real><key>min value</key><real>-6</real>"
            + "<key>source</key><integer>\(0x1000_0000)</integer><key>transform</key><integer>1</integer></dict></array>"
        let zone = PresetText.zone(id: 0, waveform: -2, "<key>loop enabled</key><true/><key>root key</key><integer>69</integer>")
        let result = try buildPreset(
            PresetText.preset(layers: PresetText.layer(extra: lfo + connections + PresetText.envelope(releaseSeconds: 0.1), zones: zone)),
            in: TemporaryDirectory())
        #expect(!result.warnings.contains { $0.contains("not applied") })
        let out = render(instrument(playing: result.program), frames: 48_000, events: [At(0, noteOn(69))]).left
        func decibels(_ range: Range<Int>) -> Double { Measure.decibels(Measure.rms(Array(out[range]))) }
        let plain = decibels(1_200..<3_600)  // before the 0.1 s delay (whole cycles of 440 Hz)
        // Square at 2 Hz from 0.1 s: high 0.1–0.35 s, low 0.35–0.6 s.
        #expect(abs(decibels(7_200..<14_400) - plain - 6) < 0.05)
        #expect(abs(decibels(19_200..<26_400) - plain + 6) < 0.05)
    }

    /// The DLS default vibrato (LFO × CC1 → pitch, ±50 cents) with the LFO as AU writes it when
    /// `waveform` is absent: a triangle (it played as a sine before), 2 Hz, after a 0.2 s delay.
    /// An eighth into the cycle a triangle is at half swing (+25 cents), a sine at 0.71 (+35).
    @Test func presetVibratoIsATriangleAfterItsDelay() throws {
        let lfo = "<key>LFOs</key><array><dict><key>ID</key><integer>0</integer><key>delay</key><real>0.2</real>"
            + "<key>enabled</key><true/><key>rate</key><real>2</real></dict></array>"
        let zone = PresetText.zone(id: 0, waveform: -2, "<key>loop enabled</key><true/><key>root key</key><integer>69</integer>")
        let result = try buildPreset(PresetText.preset(layers: PresetText.layer(extra: lfo, zones: zone)), in: TemporaryDirectory())
        let out = render(instrument(playing: result.program), frames: 48_000, events: [
            At(0, controlChange(MIDIController.modulationWheel, 127)), At(0, noteOn(69)),
        ]).left
        func cents(around seconds: Double) throws -> Double {
            let centre = Int(seconds * testSampleRate)
            let hz = try #require(Measure.zeroCrossingFrequency(Array(out[(centre - 480)..<(centre + 480)]), sampleRate: testSampleRate))
            return Measure.cents(hz, relativeTo: 440)
        }
        #expect(abs(try cents(around: 0.1)) < 0.5, "nothing before the delay")
        // Phases 1/8, 1/4, 5/8 of the cycle that starts at 0.2 s (a cycle is 0.5 s).
        #expect(abs(try cents(around: 0.2 + 0.0625) - 25) < 2)
        #expect(abs(try cents(around: 0.2 + 0.125) - 50) < 2)
        #expect(abs(try cents(around: 0.2 + 0.3125) + 25) < 2)
    }

    /// What is still not played is named once in the load warnings (which `preset check` and the
    /// loaders print): an unknown filter type, curve and LFO shape, a second LFO, a fast release
    /// other than AU's 5 ms.
    @Test func unplayedArticulationIsWarnedAboutOnce() throws {
        let extra = """
            <key>Filters</key><dict><key>ID</key><integer>0</integer><key>enabled</key><true/><key>type</key><integer>47</integer></dict>
            <key>Envelopes</key><array><dict><key>ID</key><integer>0</integer><key>Stages</key><array>
            <dict><key>curve</key><integer>23</integer><key>stage</key><integer>1</integer><key>time</key><real>0.1</real></dict>
            <dict><key>stage</key><integer>6</integer><key>time</key><real>0.05</real></dict>
            </array><key>enabled</key><true/></dict></array>
            <key>LFOs</key><array><dict><key>ID</key><integer>0</integer><key>waveform</key><integer>27</integer></dict>
            <dict><key>ID</key><integer>1</integer></dict></array>
            <key>Connections</key><array>
            <dict><key>ID</key><integer>0</integer><key>destination</key><integer>\(0x30B0_0000)</integer><key>scale</key><real>20</real><key>source</key><integer>\(0x1000_0000)</integer></dict>
            <dict><key>ID</key><integer>1</integer><key>destination</key><integer>\(0x5020_0000)</integer><key>scale</key><real>0.5</real><key>source</key><integer>\(0x1000_0001)</integer></dict>
            </array>
            """
        let zone = PresetText.zone(id: 0, waveform: -2, "<key>root key</key><integer>69</integer>")
        let result = try buildPreset(PresetText.preset(layers: PresetText.layer(extra: extra, zones: zone)), in: TemporaryDirectory())
        let needles = ["unknown filter type 47", "attack curve 23 unknown", "unknown LFO waveform 27", "connection 1", "fast release (stage 6) 0.05 s"]
        for needle in needles {
            #expect(result.warnings.filter { $0.contains(needle) }.count == 1, "\(needle): \(result.warnings)")
        }
        #expect(!result.warnings.contains { $0.contains("connection 0") }, "LFO 0 → pitch is played")
    }
}
