import AudioFiles
import AudioGraphApp
import AudioTestSupport
import DSP
import Engine
import Foundation
import MIDI
import MicEffects
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 10 through the offline renderer: limits that are hit are reported, never silent; the tail
/// ends at −96 dBFS or with a fade at its cap; an event flood delays events, never drops them.
@Suite struct HardeningRenderTests {
    let rate = 48000.0
    let quiet = ["master.lowpass.enabled=off", "master.highpass.enabled=off"]

    func render(_ events: [MIDIFileEvent], settings: [String] = [], input: DecodedAudio? = nil,
                configure: (OfflineRenderer) -> Void = { _ in }) throws -> (left: [Float], summary: OfflineRenderSummary) {
        var loader = try InstrumentLoader(instrumentPath: OfflineRenderTests.defaultInstrument)
        loader.assignments = quiet + settings
        let engine = try loader.makeEngine(configuration: EngineConfiguration(sampleRate: rate, maxFrames: 256))
        let renderer = OfflineRenderer(engine: engine, blockFrames: 256)
        configure(renderer)
        var left: [Float] = []
        let summary = try renderer.render(midi: events, input: input.map(DecodedInput.init)) { b throws(AudioFileError) in
            left.append(contentsOf: UnsafeBufferPointer(start: b.left, count: b.frames))
        }
        return (left, summary)
    }

    func synth(_ seconds: Double, _ message: MIDIMessage) -> MIDIFileEvent { MIDIFileEvent(seconds: seconds, track: 0, message: message) }

    /// Case 6: 200,000 controller messages and then a note, all at t = 0. The note used to slip a
    /// block per 4,096 events and be dropped at the tail cap; now it sounds, 49 frames late, reported.
    @Test func aFloodOfEventsDelaysButNeverDropsTheNote() throws {
        let flood = (0..<200_000).map { synth(0, .controlChange(channel: 1, controller: 1, value: UInt8($0 % 128))) }
        let (out, summary) = try render(flood + [synth(0, .noteOn(channel: 1, note: 69, velocity: 100)), synth(0.5, .noteOff(channel: 1, note: 69, velocity: 0))])
        let onset = try #require(Measure.onset(out))
        // 48 one-frame blocks carry the excess; the synth's attack then crosses 1e-4 within a few frames.
        #expect(onset <= 200_001 / OfflineRenderer.eventCapacity + 16, "the note starts \(onset) frames late")
        #expect(Measure.rms(out[4_800..<19_200]) > 0.01)
        #expect(summary.delayedEvents > 0 && summary.maxEventDelayFrames == 48, "\(summary.delayedEvents) delayed, max \(summary.maxEventDelayFrames)")
        #expect(summary.line(outputPath: "x.wav").contains("events over 4096 per block applied up to 1.0 ms late"))
    }

    /// Case 7: a note with no note-off is not cut hard at the tail cap: the cap is warned about and
    /// the sound fades to exactly 0.
    @Test func aHeldNoteFadesAtTheTailCapWithAWarning() throws {
        let (out, summary) = try render([synth(0, .noteOn(channel: 1, note: 69, velocity: 100))]) { $0.maxTailSeconds = 1 }
        #expect(abs(Double(out.count) / rate - 1) < 0.01, "\(out.count) frames")
        #expect(Measure.rms(out[24_000..<40_000]) > 0.01, "still sounding before the fade")
        #expect(out.last == 0 && out.suffix(24).allSatisfy { abs($0) < 0.001 }, "ends at exactly 0, last sample \(out.last!)")
        Measure.expectNoClick(out[40_000...], maxStep: 0.02, "a fade, not a cut")
        #expect(summary.warnings.contains { $0.contains("still sounding 1 s after the last event (the tail limit): faded out") }, "\(summary.warnings)")
    }

    /// Case 7: a 0.95-feedback delay rings on after the input ends; the render follows it down to
    /// −96 dBFS and stops there, without hitting the cap.
    @Test func aLongDelayTailRendersUntilBelowMinus96dBFS() throws {
        var impulse = [Float](repeating: 0, count: 4_800)
        impulse[1_000] = 0.5  // after the mic chain's switch-on crossfade
        let input = DecodedAudio(sampleRate: rate, channels: [impulse], frameCount: impulse.count, formatDescription: "test")
        let (out, summary) = try render([], settings: ["mic.effect=delay", "mic.delay.time=0.05", "mic.delay.feedback=0.95", "mic.delay.mix=0.5"],
                                        input: input)
        #expect(summary.warnings.isEmpty, "\(summary.warnings)")
        let seconds = Double(out.count) / rate
        #expect(seconds > 5 && seconds < 30, "the echoes ran \(seconds) s")
        let lastLoud = try #require(out.lastIndex { abs($0) >= Float(Decibels.gain(-96)) })
        #expect(Double(out.count - lastLoud) / rate >= 0.5, "ended after 0.5 s below −96 dBFS")
        #expect(lastLoud > 4_800 && Measure.peak(out[(lastLoud - 4_800)...]) > Decibels.gain(-100), "and the tail was really rendered")
    }

    /// Case 10: a huge delta (or a note held for 77 h) no longer writes without bound: events after
    /// the song limit are not played and that is warned about.
    @Test func theSongLimitBoundsAHugeDeltaAndAHeldNote() throws {
        let hugeDelta = try render([synth(134_217_727, .noteOn(channel: 1, note: 60, velocity: 100))]) { $0.maxSongSeconds = 2 }
        #expect(hugeDelta.left.count < Int(2 * rate), "\(hugeDelta.left.count) frames")
        #expect(hugeDelta.summary.warnings.contains { $0.contains("longer than the 2 s limit: 1 events after it were not played (raise it with --max-seconds)") })
        let held = try render([synth(0, .noteOn(channel: 1, note: 60, velocity: 100)), synth(277_200, .noteOff(channel: 1, note: 60, velocity: 0))]) {
            $0.maxSongSeconds = 2
            $0.maxTailSeconds = 1
        }
        #expect(held.left.count <= Int(3 * rate), "\(held.left.count) frames")
        #expect(held.summary.warnings.count == 2, "\(held.summary.warnings)")
    }

    /// Case 5: NaN in the input never reaches the file; the summary counts it and its peak is true.
    @Test func nonFiniteInputIsCountedAndNeverWritten() throws {
        var samples = Measure.sine(frequency: 440, sampleRate: rate, count: 9_600)
        samples[300] = .nan
        let input = DecodedAudio(sampleRate: rate, channels: [samples], frameCount: samples.count, formatDescription: "test")
        let (out, summary) = try render([], settings: ["mic.effect=off"], input: input)
        #expect(out.allSatisfy { $0.isFinite })
        #expect(summary.nonFiniteBlocks == 1)
        #expect(summary.line(outputPath: "x.wav").contains("1 blocks with NaN/inf or runaway values silenced"))
        #expect(abs(summary.peakDecibels - Measure.decibels(Measure.peak(out))) < 0.01)
    }

    /// Abuse: 1,000,000 events of every kind (notes, CCs, bends, programs, pressure, garbage values)
    /// in 10 s, then all-notes-off on every channel: silent within the release time.
    @Test func aMillionEventFloodEndsInSilenceAfterAllNotesOff() throws {
        var generator = SeededGenerator(seed: 0x00F1_00D5)
        var events: [MIDIFileEvent] = []
        events.reserveCapacity(1_000_016)
        for i in 0..<1_000_000 {
            let t = Double(i) * 1e-5
            // Channel 16 is left out: the bundled instrument maps its notes and CCs to loop on/off; and
            // channel 10, whose drum kit plays one-shots that ring on after all-notes-off by design.
            let drawn = UInt8.random(in: 0...13, using: &generator), channel = drawn >= 9 ? drawn + 1 : drawn
            let a = UInt8.random(in: 0...127, using: &generator)
            let b = UInt8.random(in: 0...127, using: &generator)
            let message: MIDIMessage
            switch i % 7 {
            case 0, 1: message = .noteOn(channel: channel, note: a, velocity: b)
            case 2: message = .noteOff(channel: channel, note: a, velocity: b)
            case 3: message = .controlChange(channel: channel, controller: a, value: b)
            case 4: message = .pitchBend(channel: channel, value: Int16.random(in: -8192...8191, using: &generator))
            case 5: message = .programChange(channel: channel, program: a)
            default: message = .controlChange(channel: channel, controller: 64, value: b)  // sustain pedal
            }
            events.append(synth(t, message))
        }
        for channel in 0..<16 as Range<UInt8> {
            events.append(synth(10, .controlChange(channel: channel, controller: 64, value: 0)))
            // The flood presses sostenuto too, and all-notes-off (rightly) leaves pedal-held notes sounding.
            events.append(synth(10, .controlChange(channel: channel, controller: 66, value: 0)))
            events.append(synth(10, .controlChange(channel: channel, controller: 123, value: 0)))
        }
        // Without the reverb, whose tail (two RT60s) would outlast the releases measured here.
        let (out, summary) = try render(events, settings: ["fx.enabled=off"]) { $0.maxTailSeconds = 12 }
        #expect(out.allSatisfy { $0.isFinite })
        #expect(Measure.rms(out[Int(2 * rate)..<Int(9 * rate)]) > 0.001, "the flood was played")
        #expect(summary.warnings.isEmpty, "silent before the tail cap: \(summary.warnings)")
        // The longest release among the bundled programs is Seashore's 2 s (exponential: silent at its
        // end), then the renderer's 0.5 s silence window.
        #expect(Double(out.count) / rate < 10 + 0.5 + 2.05, "silent within the release after all-notes-off: \(Double(out.count) / rate) s")
    }
}

/// Issue 10 through the executable: each hostile input gives one clear line and a non-zero exit.
@Suite struct HardeningCommandLineTests {
    let cli = CommandLineTests()
    let scratch = TemporaryDirectory()

    @Test func hugeAndNonFiniteParameterValuesGiveTheRange() throws {
        let r = try cli.run(["render", "--set", "synth.voices=1e308", "--out", scratch.file("a.wav")])
        #expect(r.status != 0)
        #expect(r.output.contains("synth.voices must be between 1 and"), "\(r.output)")
    }

    @Test func instrumentFileErrorsNameTheFileAndThePlace() throws {
        func fails(_ json: String, _ message: String, namesInstrument: Bool = true) throws {
            let path = try scratch.write(json, to: "i-\(UUID().uuidString).json")
            let r = try cli.run(["render", "--instrument", path, "--out", scratch.file("a.wav")])
            #expect(r.status != 0)
            #expect(r.output.contains(path) || !namesInstrument, "\(r.output)")
            #expect(r.output.contains(message), "\(r.output)")
        }
        try fails(#"{"name":"x","parameters":{"master.gain":1e19}}"#, "parameters: master.gain must be between -60 dB and 12 dB (got 1e+19 dB)")
        try fails(#"{"name":"x","parameters":{"master.gain":1e400}}"#, "expected a finite number (at most ±1.8e308)")
        try fails("{\"name\":\"x\",\n  \"parameters\": {\"master.gain\": 3,,}}", "not valid JSON at line 2, column 35")
        try fails(#"{"name":"x","preset":"/dev/zero"}"#, "/dev/zero: cannot read the file: is a character device, not a regular file", namesInstrument: false)
    }

    @Test func aFIFOGivenAsSongOrInputFailsAtOnce() throws {
        let fifo = scratch.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        for arguments in [["--midi", fifo], ["--input", fifo]] {
            let r = try cli.run(["render"] + arguments + ["--out", scratch.file("a.wav")])
            #expect(r.status != 0)
            #expect(r.output.contains("is a FIFO (named pipe), not a regular file"), "\(r.output)")
        }
        let pitch = try cli.run(["pitch", fifo])
        #expect(pitch.status != 0 && pitch.output.contains("is a FIFO"), "\(pitch.output)")
    }

    /// Case 8: unvoiced frames have 0 in `frequency_hz` and their confidence in `confidence`.
    @Test func pitchCSVKeepsItsColumns() throws {
        let noise = Measure.noise(count: 9_600, amplitude: 0.3)
        let path = scratch.file("noise.wav")
        try WAVFileWriter.write(path: path, channels: [noise], sampleRate: 48_000, encoding: .float32)
        let r = try cli.run(["pitch", path, "--csv"])
        #expect(r.status == 0)
        let rows = r.output.split(separator: "\n").dropFirst().map { $0.split(separator: ",") }
        #expect(rows.count > 10)
        for row in rows where row[3] == "0" {
            #expect(row[1] == "0.000", "unvoiced frame: \(row)")
        }
    }

    @Test func paramsShowsEveryChoice() throws {
        let r = try cli.run(["params"])
        #expect(r.output.contains(MicEffectKind.allCases.map(\.name).joined(separator: "|")), "\(r.output)")
    }

    @Test func maxSecondsIsValidated() throws {
        let r = try cli.run(["render", "--max-seconds", "0", "--out", scratch.file("a.wav")])
        #expect(r.status != 0 && r.output.contains("--max-seconds must be between 1 and 86400"), "\(r.output)")
    }
}
