import AudioFiles
import AudioGraphApp
import Engine
import Foundation
import MIDI

/// Renders a Standard MIDI File made in a test (written with `MIDIFileWriter`, read back with the
/// SMF reader, so SysEx goes through both) through the bundled instrument, as `render` does.
/// Sends and master filters are off unless asked for: the tests compare parts, not rooms.
struct GMRender {
    var rate = 48000.0
    var block = 256
    var settings = ["fx.enabled=off", "master.lowpass.enabled=off", "master.highpass.enabled=off"]
    /// `OfflineRenderer.levelGapSeconds`.
    var levelGapSeconds = 30.0

    struct Output {
        var left: [Float]
        var right: [Float]
        var summary: OfflineRenderSummary

        /// Both channels' largest magnitude, frame by frame.
        var peaks: [Float] { zip(left, right).map { max(abs($0), abs($1)) } }
    }

    /// One track of `events` at 120 bpm, 480 ticks per quarter (1 tick = 1/960 s).
    static func song(_ events: [(tick: Int, message: MIDIMessage)]) throws -> MIDIFile {
        let bytes = MIDIFileWriter.bytes(tracks: [MIDIFileWriter.Track(name: "test", events: events.map { .init(tick: $0.tick, message: $0.message) })])
        return try MIDIFile.parse(bytes)
    }

    /// Ticks of `seconds` at the writer's 120 bpm / 480 ppq.
    static func ticks(_ seconds: Double) -> Int { Int((seconds * 960).rounded()) }

    func render(_ song: MIDIFile, instrument: String = OfflineRenderTests.defaultInstrument) throws -> Output {
        var loader = try InstrumentLoader(instrumentPath: instrument)
        loader.assignments = settings
        loader.levels = .byNeed
        let engine = try loader.makeEngine(configuration: EngineConfiguration(sampleRate: rate, maxFrames: block))
        var left: [Float] = [], right: [Float] = []
        let renderer = OfflineRenderer(engine: engine, blockFrames: block)
        renderer.levelGapSeconds = levelGapSeconds
        let summary = try renderer.render(midi: song.events) { b throws(AudioFileError) in
            left.append(contentsOf: UnsafeBufferPointer(start: b.left, count: b.frames))
            right.append(contentsOf: UnsafeBufferPointer(start: b.right, count: b.frames))
        }
        return Output(left: left, right: right, summary: summary)
    }

    func render(_ events: [(tick: Int, message: MIDIMessage)]) throws -> Output { try render(try Self.song(events)) }

    /// Frame of a time in the song.
    func frame(_ seconds: Double) -> Int { Int(seconds * rate) }
}
