import AudioFiles
import AudioGraphApp
import AudioTestSupport
import Engine
import Foundation
import MIDI
import Testing

/// `render --threads`: a real General MIDI song through FluidR3_GM, reverb and chorus on (the
/// SoundFont voices' own sends), renders the same samples with helper threads rendering parts as
/// with the rendering thread alone.
@Suite struct ThreadedRenderTests {
    static let song = SoundFontGainTests.song
    static let font = SoundFontGainTests.font
    static let ready = [song, font].allSatisfy { FileManager.default.fileExists(atPath: $0) }

    static func render(_ events: [MIDIFileEvent], workers: Int) throws -> (left: [Float], right: [Float]) {
        var loader = InstrumentLoader(soundFontModule: ())
        loader.soundFontOverride = font
        loader.levels = .byNeed
        loader.song = events.map(\.message)
        let engine = try loader.makeEngine(configuration: EngineConfiguration(sampleRate: 44100, maxFrames: 256, samplerWorkers: workers))
        var left: [Float] = [], right: [Float] = []
        _ = try OfflineRenderer(engine: engine, blockFrames: 256).render(midi: events) { b throws(AudioFileError) in
            left.append(contentsOf: UnsafeBufferPointer(start: b.left, count: b.frames))
            right.append(contentsOf: UnsafeBufferPointer(start: b.right, count: b.frames))
        }
        return (left, right)
    }

    @Test(.enabled(if: ready, "needs FluidR3_GM and openttd-openmsx (scripts/install-deps)"))
    func helperThreadsRenderTheSameSamples() throws {
        let events = try MIDIFile.read(path: Self.song).events.filter { $0.seconds < 20 }
        let alone = try Self.render(events, workers: 1)
        let helped = try Self.render(events, workers: 3)
        #expect(Measure.stereoRMSDecibels(alone.left, alone.right, frames: alone.left.count) > -40, "the song sounds")
        #expect(helped.left == alone.left)
        #expect(helped.right == alone.right)
    }
}
