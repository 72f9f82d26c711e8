import AudioTestSupport
import DSP
import MIDI
import Sampler
import SamplerLevels
import Testing

/// The voice filter at its worst settings stays bounded, and a voice that still goes bad stops alone.
@Suite struct VoiceContainmentTests {
    /// Resonance 1e308 (bounded to 40 dB), LFO rate 1e308 (100 Hz) driving the cutoff with scale
    /// 1e308 (bounded to 100,000 cents): the cutoff swings across the whole band 100 times a second.
    static let hostileLayer = """
        <key>Connections</key><array><dict><key>ID</key><integer>0</integer><key>control</key><integer>0</integer>
        <key>destination</key><integer>1095761920</integer><key>enabled</key><true/>
        <key>source</key><integer>268435456</integer><key>transform</key><integer>1</integer>
        <key>scale</key><real>1e308</real></dict></array>
        <key>Filters</key><dict><key>enabled</key><true/><key>cutoff</key><real>2000</real><key>resonance</key><real>1e308</real></dict>
        <key>LFOs</key><array><dict><key>ID</key><integer>0</integer><key>rate</key><real>1e308</real></dict></array>
        """

    func program(layer: String) throws -> SamplerProgram {
        let zone = PresetText.zone(id: 0, waveform: -2, "<key>loop enabled</key><true/><key>root key</key><integer>69</integer>")
        return try buildPreset(PresetText.preset(layers: PresetText.layer(extra: layer, zones: zone)), in: TemporaryDirectory()).program
    }

    /// Program 0 on channel 0 (`bad`), the healthy sine preset on channel 1 (E5); returns both
    /// notes' render and the healthy one alone, and the instrument.
    func play(_ bad: SamplerProgram) throws -> (both: Rendered, alone: Rendered, sampler: SamplerInstrument) {
        let bank = ProgramBank(programs: [bad, try program(layer: "")], names: ["bad", "healthy"], table: [0: [.sampler(0), .sampler(1)]])
        bad.buildAllLevels()
        func run(_ events: [At]) -> (Rendered, SamplerInstrument) {
            let sampler = SamplerInstrument(sampleRate: testSampleRate, maxFrames: 512)
            sampler.submit(bank)
            return (render(sampler, frames: 24_000, events: [At(0, .programChange(channel: 1, program: 1)),
                                                              At(0, .noteOn(channel: 1, note: 76, velocity: 100))] + events), sampler)
        }
        let (both, sampler) = run([At(0, noteOn(69))])
        return (both, run([]).0, sampler)
    }

    /// Before the state-variable voice filter this ran away (a direct-form biquad past 700 within
    /// 10 ms, then infinity and NaN; +513 dBFS in a render). Now: finite, bounded by the resonance.
    @Test func fullResonanceSweptAtTheLFOsFastestStaysBounded() throws {
        let (both, _, sampler) = try play(try program(layer: Self.hostileLayer))
        #expect(sampler.runawayVoiceCount == 0 && sampler.activeVoiceCount == 2)
        let peak = max(Measure.peak(both.left), Measure.peak(both.right))
        #expect(both.left.allSatisfy(\.isFinite) && both.right.allSatisfy(\.isFinite))
        #expect(peak > 0.1 && peak < 10, "peak \(peak): at most the 40 dB resonance's gain on the sine's level")
    }

    /// A voice whose filtered output goes beyond +80 dBFS (here a sample of 1e30: nothing a file
    /// can hold now, the guard is the last line) is stopped and counted before the bus guard
    /// would silence every part of the bus; the healthy note plays on exactly as alone.
    @Test func aRunawayVoiceIsStoppedAndTheOthersPlayOn() throws {
        var layer = SamplerLayer()
        layer.filter = SamplerFilterSettings(isEnabled: true, kind: .lowPass, cutoffHz: 2_000)
        let huge = try SamplerWaveform(channels: [[Float](repeating: 1e30, count: 4_096)], sampleRate: testSampleRate,
                                       naturalLoop: SamplerLoop(startFrame: 0, endFrame: 4_096))
        let bad = try SamplerProgram(layers: [layer], zones: [SamplerZone(waveform: huge, rootKey: 69)])
        let (both, alone, sampler) = try play(bad)
        #expect(sampler.runawayVoiceCount == 1, "the bad voice was stopped")
        #expect(sampler.activeVoiceCount == 1, "the healthy note still sounds")
        #expect(both.left.allSatisfy { $0.isFinite && abs($0) < NonFiniteGuard.maximumMagnitude })
        #expect(both.right.allSatisfy { $0.isFinite && abs($0) < NonFiniteGuard.maximumMagnitude })
        #expect(Measure.amplitude(alone.left, at: 659.255, sampleRate: testSampleRate) > 0.05, "level floor: the healthy note sounds")
        let difference = both.left.indices.map { abs(both.left[$0] - alone.left[$0]) + abs(both.right[$0] - alone.right[$0]) }.max() ?? 1
        #expect(difference < 1e-6, "from its first chunk on, nothing of the bad voice was mixed")
    }
}

/// The same line for SoundFont voices: a note whose filtered output runs away (a sample of 1e30
/// through FluidSynth's filter, as no file can hold) is stopped and counted, and nothing of it is mixed.
@Suite struct SoundFontVoiceContainmentTests {
    @Test func aRunawaySoundFontVoiceIsStoppedAndCounted() throws {
        let huge = try SamplerWaveform(channels: [[Float](repeating: 1e30, count: 4_096)], sampleRate: soundFontTestRate,
                                       naturalLoop: SamplerLoop(startFrame: 0, endFrame: 4_096))
        let program = try soundFontProgram([soundFontZone(huge, rootKey: 69, generators: [SF2Generator.initialFilterCutoff: 6_000])])
        program.buildAllLevels()
        let sampler = soundFontInstrument(program)
        let out = render(sampler, frames: 4_096, events: [At(0, noteOn(69, 100))])
        #expect(sampler.runawayVoiceCount == 1, "the bad voice was stopped and counted")
        #expect(sampler.activeVoiceCount == 0)
        #expect(out.left.allSatisfy { $0 == 0 } && out.right.allSatisfy { $0 == 0 }, "nothing of it was mixed")
    }
}
