import AudioTestSupport
import DSP
import MIDI
import Sampler
import Testing

/// One voice gone bad stops alone: a voice filter at full resonance whose cutoff an LFO sweeps at
/// its fastest and widest runs away (its output grows past +80 dBFS, then to infinity and NaN).
/// The voice is stopped and counted before the bus guard would silence the whole bus; a healthy
/// note on another part plays on exactly as alone.
@Suite struct VoiceContainmentTests {
    /// Resonance 1e308 (bounded to 40 dB), LFO rate 1e308 (100 Hz) driving the cutoff with scale
    /// 1e308 (bounded to 100,000 cents).
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

    @Test func aRunawayVoiceIsStoppedAndTheOthersPlayOn() throws {
        let bank = ProgramBank(programs: [try program(layer: Self.hostileLayer), try program(layer: "")], names: ["hostile", "healthy"],
                               table: [0: [.sampler(0), .sampler(1)]])
        func play(hostile: Bool) -> (Rendered, SamplerInstrument) {
            let sampler = SamplerInstrument(sampleRate: testSampleRate, maxFrames: 512)
            sampler.submit(bank)
            var events = [At(0, .programChange(channel: 1, program: 1)), At(0, .noteOn(channel: 1, note: 76, velocity: 100))]
            if hostile { events.append(At(0, noteOn(69))) }
            return (render(sampler, frames: 24_000, events: events), sampler)
        }
        let (both, sampler) = play(hostile: true)
        let (alone, _) = play(hostile: false)
        #expect(sampler.runawayVoiceCount == 1, "the hostile voice ran away and was stopped")
        #expect(sampler.activeVoiceCount == 1, "the healthy note still sounds")
        // The bus guard (which would silence every part of the bus) never sees a sample beyond its limit, nor
        // NaN; the runaway's burst (it grows past 0 dBFS within 1 ms) ends within 20 ms, where the voice stops.
        #expect(both.left.allSatisfy { $0.isFinite && abs($0) < NonFiniteGuard.maximumMagnitude })
        #expect(both.right.allSatisfy { $0.isFinite && abs($0) < NonFiniteGuard.maximumMagnitude })
        let lastLoud = both.left.lastIndex { abs($0) > 1 } ?? 0
        #expect(lastLoud > 0 && lastLoud < 960, "the runaway burst ends at frame \(lastLoud)")
        // After the stop the healthy note is exactly what it is alone, and audible.
        let late = 12_000..<24_000
        let level = Measure.amplitude(alone.left[late], at: 659.255, sampleRate: testSampleRate)
        #expect(level > 0.05, "level floor: the healthy note sounds")
        let difference = late.map { abs(both.left[$0] - alone.left[$0]) + abs(both.right[$0] - alone.right[$0]) }.max() ?? 1
        #expect(difference < 1e-6)
    }
}
