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

    func engine(_ path: String, playsDemo: Bool = false) throws -> AudioEngine {
        var loader = try InstrumentLoader(instrumentPath: path)
        loader.playsDemo = playsDemo
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

    /// The bundled table covers all 128 General MIDI programs, each on a preset of its family
    /// (no program on another family's sound or on the test presets Lead and Sine), named by its
    /// General MIDI name; bank 128 holds the GS kits, other kit numbers fall back to Standard.
    @Test func bundledTableFollowsTheGeneralMIDIFamilies() throws {
        let file = try InstrumentFile.load(path: OfflineRenderTests.defaultInstrument)
        guard case .ranges(let table)? = file.programs else {
            Issue.record("the bundled table is an object of program numbers")
            return
        }
        let families: [(ClosedRange<Int>, Set<String>)] = [
            (0...7, ["Piano", "Keys", "Pluck"]), (8...15, ["Bell", "Mallet", "Pluck"]), (16...23, ["Organ", "Reed"]),
            (24...31, ["Guitar", "Overdrive", "Mallet"]), (32...39, ["Bass", "Saw"]), (40...47, ["Strings", "Pluck", "Membrane"]),
            (48...55, ["Strings", "Saw", "Pad", "Voice", "Brass"]), (56...63, ["Brass", "Saw"]), (64...71, ["Reed", "Clarinet"]),
            (72...79, ["Flute"]), (80...87, ["Square", "Saw", "Flute", "Overdrive", "Voice"]), (88...95, ["Pad", "Saw", "Voice", "Bell"]),
            (96...103, ["Bell", "Pad", "Pluck"]), (104...111, ["Pluck", "Mallet", "Reed", "Strings"]),
            (112...119, ["Bell", "Mallet", "Membrane", "Noise"]), (120...127, ["Noise", "Flute", "Square"]),
        ]
        for (range, presets) in families {
            for program in range {
                guard case .preset(let settings)? = table[String(program)] else {
                    Issue.record("program \(program) has no entry of its own")
                    continue
                }
                let preset = ((settings.preset as NSString).lastPathComponent as NSString).deletingPathExtension
                #expect(presets.contains(preset), "program \(program) (\(settings.name ?? "")) plays \(preset)")
            }
        }
        let bank = try #require(try engine(OfflineRenderTests.defaultInstrument).programBank)
        func name(_ program: Int, drum: Bool = false) -> String {
            bank.name(of: bank.lookup(bank: 0, program: program, isDrum: drum) ?? .none)
        }
        #expect(name(0) == "Acoustic Grand Piano" && name(33) == "Electric Bass (finger)" && name(127) == "Gunshot")
        let kits = [0: "Standard", 8: "Room", 16: "Power", 24: "Electronic", 25: "TR-808", 32: "Jazz", 40: "Brush", 48: "Orchestra"]
        for (kit, kitName) in kits { #expect(name(kit, drum: true) == kitName + " Kit") }
        #expect(name(1, drum: true) == "Standard Kit" && name(127, drum: true) == "Standard Kit", "other kits fall back to Standard")
        #expect(bank.name(of: bank.startProgram(channel: 9)) == "Standard Kit", "channel 10 is the drum part")
        #expect(bank.startProgram(channel: 0) == bank.lookup(bank: 0, program: 0, isDrum: false), "channel 1 starts on program 0")
        #expect(bank.startProgram(channel: 1) == bank.startProgram(channel: 0), "channel 2 starts on program 0 as any GM part")
        let demoBank = try #require(try engine(OfflineRenderTests.defaultInstrument, playsDemo: true).programBank)
        #expect(demoBank.startProgram(channel: 1) == .synth, "the demo's channel 2 plays the synth (its pads)")
        #expect(demoBank.startProgram(channel: 0) == bank.startProgram(channel: 0))
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

    /// A program's settings shape the preset it plays, measured on the built-in sine (A4, 440 Hz):
    /// gain −6 dB is −6.0 dB; an exponential decay to silence over 1 s is −20.8 dB at 0.5 s; a
    /// 200 Hz low-pass takes 440 Hz down by its 12 dB/octave (−13.7 dB for the RBJ design at Q
    /// 0.707); `velocity: none` plays velocity 40 as loud as 127. The preset is read once and its
    /// five programs play its one waveform.
    @Test func programSettingsShapeThePresetTheyPlay() throws {
        let sine = "\(Self.root)/Presets/Sine.aupreset"
        let path = try instrument(#"""
            "programs": {"0": "\#(sine)", "1": {"preset": "\#(sine)", "gain": -6},
                         "2": {"preset": "\#(sine)", "envelope": {"decay": 1, "sustain": 0}},
                         "3": {"preset": "\#(sine)", "filter": {"cutoff": 200}},
                         "4": {"preset": "\#(sine)", "velocity": "none", "name": "Flat sine"}}
            """#)
        var loader = try InstrumentLoader(instrumentPath: path)
        loader.assignments = ["master.lowpass.enabled=off", "master.highpass.enabled=off"]
        loader.levels = .byNeed
        let bank = try #require(try loader.makeEngine(configuration: EngineConfiguration(sampleRate: rate, maxFrames: 256)).programBank)
        let waveforms = bank.programs.map { ObjectIdentifier($0.zones[0].waveform) }
        #expect(bank.programs.count == 5 && Set(waveforms).count == 1, "one preset read, its waveform shared by the five programs")
        #expect(bank.name(of: bank.lookup(bank: 0, program: 4, isDrum: false) ?? .none) == "Flat sine")
        func level(program: UInt8, velocity: UInt8 = 100, at seconds: Double = 0.3) throws -> Double {
            let events = [
                MIDIFileEvent(seconds: 0, track: 0, message: .programChange(channel: 0, program: program)),
                MIDIFileEvent(seconds: 0.1, track: 0, message: .noteOn(channel: 0, note: 69, velocity: velocity)),
                MIDIFileEvent(seconds: 1.5, track: 0, message: .noteOff(channel: 0, note: 69, velocity: 0)),
            ]
            let out = try render(try engine(path), events).left
            let start = Int((0.1 + seconds) * rate)
            return Measure.decibels(Measure.amplitude(out[start..<start + 4_800], at: 440, sampleRate: rate))
        }
        let plain = try level(program: 0)
        let (gain, decay, filter) = (try level(program: 1), try level(program: 2, at: 0.45), try level(program: 3))
        let (flatSoft, flatLoud, plainSoft) = (try level(program: 4, velocity: 40), try level(program: 4, velocity: 127), try level(program: 0, velocity: 40))
        #expect(plain > -30, "level floor: \(plain) dBFS")
        #expect(abs(gain - plain + 6) < 0.05, "gain: \(gain - plain) dB")
        #expect(abs(decay - plain + 20.8) < 1.5, "decay: \(decay - plain) dB")
        #expect(abs(filter - plain + 13.7) < 1, "filter: \(filter - plain) dB")
        #expect(abs(flatSoft - flatLoud) < 0.05, "velocity none: \(flatSoft - flatLoud) dB")
        #expect(plainSoft < plain - 6, "the plain preset follows velocity")
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
        (#""demo": {"song": "d.mid", "start": {"2": "pads"}}"#, #"demo.start."2": a program number 0–127, "synth" or "none""#),
        (#""channels": {"play": [0]}"#, "channels.play: MIDI channel 0 is not 1–16"),
        (#""channels": {"drums": [10, 17]}"#, "channels.drums: MIDI channel 17 is not 1–16"),
        (#""channels": {"drum": [10]}"#, "channels.drum: unknown key 'drum'"),
        (#""programs": {"0": {"preset": "Missing.aupreset", "gain": 3}}"#, #"programs."0": preset "#),
        (#""programs": {"0": {"preset": "Sine.aupreset", "decay": 1}}"#, "programs.0.decay: unknown key 'decay'"),
        (#""programs": {"0": {"gain": 1}}"#, "programs.0: missing key 'preset'"),
        (#""programs": {"0": {"preset": "a", "gain": 40}}"#, "programs.0.gain: 40.0 is out of range (dB, −60–24)"),
        (#""programs": {"0": {"preset": "a", "envelope": {"decay": 500}}}"#, "programs.0.envelope.decay: 500.0 is out of range (seconds, 0–100)"),
        (#""programs": {"0": {"preset": "a", "envelope": {"sustain": 2}}}"#, "programs.0.envelope.sustain: 2.0 is out of range (a level 0–1"),
        (#""programs": {"0": {"preset": "a", "envelope": {"decy": 2}}}"#, "programs.0.envelope.decy: unknown key 'decy'"),
        (#""programs": {"0": {"preset": "a", "filter": {"type": "lowpass"}}}"#, "programs.0.filter: missing key 'cutoff'"),
        (#""programs": {"0": {"preset": "a", "filter": {"cutoff": 9, "type": "notch"}}}"#, "programs.0.filter.type: 'notch' is not a filter type"),
        (#""programs": {"0": {"preset": "a", "filter": {"cutoff": 9}}}"#, "programs.0.filter.cutoff: 9.0 is out of range (Hz, 20–20000)"),
        (#""programs": {"0": {"preset": "a", "velocity": "loud"}}"#, "programs.0.velocity: 'loud' is not a velocity curve"),
        (#""programs": [{"preset": "a", "loop": 3}]"#, "programs"),
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
