import AudioGraphApp
import Engine
import Foundation
import LiveTestSupport
import Sampler
import SamplerLevels
import Testing

/// Live, the band-limited levels are built in the background after start (notes on a region
/// without them play with the 4-point kernel): `status` says how many regions still wait, and 0
/// once the builder has published them all; and how many notes found their samples not read yet.
@Suite struct LevelStatusTests {
    @Test func statusCountsRegionsStillWaitingForLevels() throws {
        var loader = try InstrumentLoader(instrumentPath: OfflineRenderTests.defaultInstrument)
        loader.levels = .byNeed
        let engine = try loader.makeEngine(configuration: EngineConfiguration(sampleRate: 48000, maxFrames: 64))
        let probe = try LiveLoopProbe(engine: engine, periodFrames: 64, input: nil)
        let before = try awaiting(probe)
        #expect(before > 0, "the default instrument's regions start without levels")
        #expect(probe.controlRequest("status").contains("levels building for \(before) regions"))
        let bank = try #require(probe.controller.programBank)
        let publisher = LevelPublisher.start(bank)
        defer { publisher.stop() }
        // A guard against a hang, not a speed check: a busy machine (a build beside the tests) took over 60 s.
        let deadline = Date().addingTimeInterval(600)
        while publisher.regionsAwaitingLevels > 0, Date() < deadline { usleep(10_000) }
        #expect(try awaiting(probe) == 0)
        #expect(!probe.controlRequest("status").contains("levels building"))
    }

    /// A SoundFont read on need (`play`): a note on a program whose samples are not read (nor
    /// read within its 0.1 s wait) is silent and counted in `status`; the start programs, read
    /// before the first period, sound.
    @Test func statusCountsNotesSilentForSamplesNotReadYet() throws {
        let font = "/usr/share/sounds/sf2/TimGM6mb.sf2"
        guard FileManager.default.isReadableFile(atPath: font) else { return print("skipped: \(font) is not installed") }
        var loader = InstrumentLoader(soundFontModule: ())
        loader.soundFontOverride = font
        loader.levels = .byNeed
        loader.soundFontSamples = .onNeed
        let engine = try loader.makeEngine(configuration: EngineConfiguration(sampleRate: 48000, maxFrames: 64))
        let probe = try LiveLoopProbe(engine: engine, periodFrames: 64, input: nil)
        probe.receive(.noteOn(channel: 0, note: 60, velocity: 100))
        probe.runPeriods(80)  // past its wait: 80 × 64 frames at 48 kHz, 0.107 s
        #expect(try field("silentNotes", probe) == 1, "nothing read yet")
        #expect(probe.controlRequest("status").contains("silent notes 1 (samples not read yet)"))
        let bank = try #require(probe.controller.programBank)
        let store = LevelStore(budget: LevelBudget(limitBytes: 0), sampleBudget: LevelBudget(limitBytes: 1 << 30))
        let publisher = LevelPublisher.start(bank, store: store, prefetch: false)
        defer { publisher.stop() }
        #expect(publisher.startPreparation.prepared > 0)
        probe.receive(.noteOn(channel: 0, note: 62, velocity: 100))
        probe.runPeriods(4)
        #expect(try field("silentNotes", probe) == 1 && field("voices", probe) > 0, "the start program sounds")
    }

    /// `regionsAwaitingLevels` from `status --json`.
    private func awaiting(_ probe: LiveLoopProbe) throws -> Int { try field("regionsAwaitingLevels", probe) }

    /// A number of `status --json` (the reply is "ok", a newline, the JSON).
    private func field(_ name: String, _ probe: LiveLoopProbe) throws -> Int {
        let reply = probe.controlRequest("status --json")
        let json = try #require(reply.split(separator: "\n", maxSplits: 1).last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return try #require(object[name] as? Int)
    }
}
