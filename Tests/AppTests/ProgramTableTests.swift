import AudioFiles
import AudioGraphApp
import AudioTestSupport
import Engine
import Foundation
import MIDI
import Sampler
import Testing

/// The instrument file's program table: General MIDI families, banks, the drum part, channel
/// settings, and errors that name the key at fault.
@Suite struct ProgramTableTests {
    let rate = 48000.0
    let scratch = TemporaryDirectory()
    static let root = OfflineRenderTests.repository

    func instrument(_ body: String) throws -> String {
        try scratch.write(#"{"name": "t", "samplePaths": ["\#(Self.root)/Sounds"], \#(body)}"#, to: "t.json")
    }

    func engine(_ path: String) throws -> AudioEngine {
        var loader = try InstrumentLoader(instrumentPath: path)
        loader.assignments = ["master.lowpass.enabled=off", "master.highpass.enabled=off"]
        return try loader.makeEngine(configuration: EngineConfiguration(sampleRate: rate, maxFrames: 256))
    }

    func render(_ engine: AudioEngine, _ events: [MIDIFileEvent]) throws -> (left: [Float], summary: OfflineRenderSummary) {
        var left: [Float] = []
        let summary = try OfflineRenderer(engine: engine, blockFrames: 256).render(midi: events) { b throws(AudioFileError) in
            left.append(contentsOf: UnsafeBufferPointer(start: b.left, count: b.frames))
        }
        return (left, summary)
    }

    /// 2nd + 3rd harmonic relative to the fundamental: the electric piano is rich, the sine is not.
    func harmonicContent(_ x: ArraySlice<Float>, fundamental f: Double) -> Double {
        let a1 = Measure.amplitude(x, at: f, sampleRate: rate)
        return (Measure.amplitude(x, at: 2 * f, sampleRate: rate) + Measure.amplitude(x, at: 3 * f, sampleRate: rate)) / a1
    }

    /// The bundled table maps General MIDI families to the bundled presets by name.
    @Test func bundledTableFollowsTheGeneralMIDIFamilies() throws {
        let bank = try #require(try engine(OfflineRenderTests.defaultInstrument).programBank)
        func name(_ program: Int, drum: Bool = false) -> String {
            bank.name(of: bank.lookup(bank: 0, program: program, isDrum: drum) ?? .none)
        }
        let expected: [(ClosedRange<Int>, String)] = [
            (0...15, "Keys"), (16...23, "Organ"), (24...31, "Guitar"), (32...39, "Bass"), (40...55, "Strings"),
            (56...87, "Lead"), (88...103, "Strings"), (104...111, "Guitar"), (112...119, "Keys"), (120...127, "Sine"),
        ]
        for (range, preset) in expected {
            for program in range { #expect(name(program) == preset, "program \(program)") }
        }
        #expect(name(33) == "Bass", "Electric Bass (finger)")
        #expect(name(0, drum: true) == "Drums" && name(25, drum: true) == "Drums")
        #expect(bank.name(of: bank.startProgram(channel: 9)) == "Drums", "channel 10 is the drum part")
        #expect(bank.startProgram(channel: 0) == bank.lookup(bank: 0, program: 0, isDrum: false), "channel 1 starts on program 0")
        #expect(bank.startProgram(channel: 1) == .synth, "channel 2 plays the synth (the demo's pads)")
    }

    /// Measured in the output: program 33 on channel 3 plays the table's "32-39" preset (here the
    /// pure built-in sine), program 0 on channel 4 the piano; channel 10 plays bank 128 by default.
    @Test func programChangeAndDrumPartPlayTheTablesPresets() throws {
        let path = try instrument(#"""
            "programs": {"0-31": "\#(Self.root)/Presets/Keys.aupreset", "32-39": "\#(Self.root)/Presets/Sine.aupreset",
                         "40-127": "\#(Self.root)/Presets/Keys.aupreset"},
            "banks": {"128": {"0": "\#(Self.root)/Presets/Sine.aupreset"}}
            """#)
        func tone(channel: UInt8, program: UInt8?) throws -> ArraySlice<Float> {
            var events: [MIDIFileEvent] = []
            if let program { events.append(MIDIFileEvent(seconds: 0, track: 0, message: .programChange(channel: channel, program: program))) }
            events += [MIDIFileEvent(seconds: 0.1, track: 0, message: .noteOn(channel: channel, note: 69, velocity: 100)),
                       MIDIFileEvent(seconds: 0.7, track: 0, message: .noteOff(channel: channel, note: 69, velocity: 0))]
            let out = try render(try engine(path), events).left
            #expect(Measure.rms(out[9_600..<28_800]) > 0.01, "level floor")
            return out[9_600..<28_800]
        }
        #expect(harmonicContent(try tone(channel: 2, program: 33), fundamental: 440) < 0.01, "program 33: the bass family's preset")
        #expect(harmonicContent(try tone(channel: 3, program: 0), fundamental: 440) > 0.05, "program 0: the piano")
        #expect(harmonicContent(try tone(channel: 9, program: nil), fundamental: 440) < 0.01, "channel 10: bank 128")
        #expect(harmonicContent(try tone(channel: 8, program: nil), fundamental: 440) > 0.05, "channel 9: program 0")
    }

    /// Restricted channels: the ignored notes are counted and reported once per channel, with the
    /// reason; the render summary lists every channel that received notes.
    @Test func restrictedChannelsAreReportedOnceAndSummarised() throws {
        let path = try instrument(#""preset": "\#(Self.root)/Presets/Sine.aupreset", "channels": {"play": [1, 3]}"#)
        let engine = try engine(path)
        var song: [MIDIFileEvent] = []
        for (i, channel) in [0, 2, 4, 4].enumerated() {
            song.append(MIDIFileEvent(seconds: 0.1 * Double(i), track: 0, message: .noteOn(channel: UInt8(channel), note: 69, velocity: 100)))
            song.append(MIDIFileEvent(seconds: 0.1 * Double(i) + 0.05, track: 0, message: .noteOff(channel: UInt8(channel), note: 69, velocity: 0)))
        }
        let (_, summary) = try render(engine, song)
        let report = PartReport()
        let lines = report.newIgnoredNoteLines(engine.controller)
        #expect(lines == ["channel 5: notes ignored (2 so far): the instrument file's channels.play lists only 1, 3"])
        #expect(report.newIgnoredNoteLines(engine.controller).isEmpty, "said once")
        #expect(summary.parts.map(\.channel) == [1, 3, 5])
        #expect(summary.parts.map(\.notesPlayed) == [1, 1, 0])
        #expect(summary.parts[0].program == "Sine")
        #expect(summary.parts[0].peakDecibels > -40 && summary.parts[0].peakDecibels < 0)
        #expect(summary.parts[2].peak == 0)
    }

    @Test(arguments: [
        (#""programs": {"32-39x": "synth"}"#, #"programs."32-39x": a program number 0–127 or a range"#),
        (#""programs": {"40-30": "synth"}"#, #"programs."40-30""#),
        (#""programs": {"0": "Missing.aupreset"}"#, #"programs."0": preset "#),
        (#""programs": ["synth", "Missing.aupreset"]"#, "programs[1]: preset "),
        (#""banks": {"200": {"0": "synth"}}"#, #"banks."200": a bank is a number 0–128"#),
        (#""banks": {"128": {"0-127": "Nope.aupreset"}}"#, #"banks."128"."0-127": preset "#),
        (#""channels": {"start": {"17": 0}}"#, #"channels.start."17": a channel is 1–16"#),
        (#""channels": {"start": {"3": "piano"}}"#, #"channels.start."3": a program number 0–127, "synth" or "none""#),
        (#""channels": {"play": [0]}"#, "channels.play: MIDI channel 0 is not 1–16"),
        (#""channels": {"drums": [10, 17]}"#, "channels.drums: MIDI channel 17 is not 1–16"),
        (#""channels": {"drum": [10]}"#, "channels.drum: unknown key 'drum'"),
    ])
    func mistakesNameTheKey(body: String, message: String) {
        do {
            _ = try engine(try instrument(body))
            Issue.record("no error for \(body)")
        } catch {
            #expect("\(error)".contains(message), "got: \(error)")
        }
    }
}
