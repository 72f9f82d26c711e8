import AudioFiles
import AudioGraphApp
import AudioTestSupport
import DSP
import Engine
import Foundation
import MIDI
import Testing

@Suite struct ProgramAndFollowerTests {
    let rate = 48000.0
    let scratch = TemporaryDirectory()

    /// The older instrument-file forms: `programs` as a list (programs 0, 1, 2) and `channels` by instrument.
    func listFormInstrument() throws -> String {
        let root = OfflineRenderTests.repository
        return try scratch.write("""
            {"name": "list form", "preset": "\(root)/Presets/Keys.aupreset", "samplePaths": ["\(root)/Sounds"],
             "programs": ["\(root)/Presets/Keys.aupreset", "\(root)/Presets/Lead.aupreset", "\(root)/Presets/Sine.aupreset"],
             "channels": {"sampler": [1], "synth": [2]}}
            """, to: "list.json")
    }

    func render(_ events: [MIDIFileEvent], settings: [String] = [], input: DecodedAudio? = nil, instrument: String? = nil) throws -> [Float] {
        var loader = try InstrumentLoader(instrumentPath: instrument ?? OfflineRenderTests.defaultInstrument)
        loader.assignments = ["master.lowpass.enabled=off", "master.highpass.enabled=off"] + settings
        let engine = try loader.makeEngine(configuration: EngineConfiguration(sampleRate: rate, maxFrames: 256))
        let renderer = OfflineRenderer(engine: engine, blockFrames: 256)
        var left: [Float] = []
        _ = try renderer.render(midi: events, input: input.map(DecodedInput.init)) { b throws(AudioFileError) in
            left.append(contentsOf: UnsafeBufferPointer(start: b.left, count: b.frames))
        }
        return left
    }

    /// How much of the tone is its 2nd and 3rd harmonics, relative to the fundamental.
    func harmonicContent(_ x: ArraySlice<Float>, fundamental f: Double) -> Double {
        let a1 = Measure.amplitude(x, at: f, sampleRate: rate)
        return (Measure.amplitude(x, at: 2 * f, sampleRate: rate) + Measure.amplitude(x, at: 3 * f, sampleRate: rate)) / a1
    }

    /// Program 2 of the list is the built-in sine preset: after the program change (applied on the
    /// render thread, by index) the same note is a pure 440 Hz sine; before it, the electric piano.
    @Test func programChangeSwitchesTheSamplerPresetOnItsFrame() throws {
        let note: UInt8 = 69
        let song = [
            MIDIFileEvent(seconds: 0.0, track: 0, message: .noteOn(channel: 0, note: note, velocity: 100)),
            MIDIFileEvent(seconds: 0.6, track: 0, message: .noteOff(channel: 0, note: note, velocity: 0)),
            MIDIFileEvent(seconds: 1.0, track: 0, message: .programChange(channel: 0, program: 2)),
            MIDIFileEvent(seconds: 1.1, track: 0, message: .noteOn(channel: 0, note: note, velocity: 100)),
            MIDIFileEvent(seconds: 1.7, track: 0, message: .noteOff(channel: 0, note: note, velocity: 0)),
        ]
        let out = try render(song, settings: ["bus.synth.mute=on"], instrument: try listFormInstrument())
        let keys = harmonicContent(out[9600..<28800], fundamental: 440)
        let sine = harmonicContent(out[62400..<81600], fundamental: 440)
        #expect(keys > 0.05, "electric piano has harmonics (\(keys))")
        #expect(sine < 0.01, "built-in sine is pure (\(sine))")
        let measured = Measure.frequency(out[62400..<81600], sampleRate: rate, guess: 440)!
        #expect(abs(Measure.cents(measured, relativeTo: 440)) < 1)
    }

    /// With `synth.follow` on, a synth voice sings the pitch detected on the mic input.
    @Test(arguments: [(196.0, 0), (196.0, 12), (330.0, -5)])
    func pitchFollowerSingsTheDetectedInputPitch(inputHz: Double, interval: Int) throws {
        let tone = Measure.sine(frequency: inputHz, sampleRate: rate, count: Int(2 * rate), amplitude: 0.3)
        let input = DecodedAudio(sampleRate: rate, channels: [tone], frameCount: tone.count, metadata: SampleMetadata(), formatDescription: "test")
        let out = try render([], settings: ["synth.follow=on", "synth.follow.interval=\(interval)", "bus.mic.mute=on"], input: input)
        let expected = inputHz * pow(2, Double(interval) / 12)
        let measured = Measure.frequency(out[48000..<90000], sampleRate: rate, guess: expected)!
        #expect(abs(Measure.cents(measured, relativeTo: expected)) < 5, "follower at \(measured) Hz, expected \(expected) Hz")
        #expect(Measure.rms(out[48000..<90000]) > 0.05)
        Measure.expectNoClick(out[48000..<90000])
    }
}
