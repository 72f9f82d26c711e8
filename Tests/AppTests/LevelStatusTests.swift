import AudioGraphApp
import Engine
import Foundation
import LiveTestSupport
import Sampler
import SamplerLevels
import Testing

/// Live, the band-limited levels are built in the background after start (notes on a region
/// without them play with the 4-point kernel): `status` says how many regions still wait, and 0
/// once the builder has published them all.
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
        let deadline = Date().addingTimeInterval(60)
        while publisher.regionsAwaitingLevels > 0, Date() < deadline { usleep(10_000) }
        #expect(try awaiting(probe) == 0)
        #expect(!probe.controlRequest("status").contains("levels building"))
    }

    /// `regionsAwaitingLevels` from `status --json` (the reply is "ok", a newline, the JSON).
    private func awaiting(_ probe: LiveLoopProbe) throws -> Int {
        let reply = probe.controlRequest("status --json")
        let json = try #require(reply.split(separator: "\n", maxSplits: 1).last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return try #require(object["regionsAwaitingLevels"] as? Int)
    }
}
