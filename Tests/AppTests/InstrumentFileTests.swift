import AudioGraphApp
import AudioTestSupport
import Engine
import Foundation
import Testing

@Suite struct InstrumentFileTests {
    let scratch = TemporaryDirectory()

    func write(_ json: String) throws -> String {
        try scratch.write(json, to: "i.json")
    }

    func error(_ json: String) -> String {
        do {
            let path = try write(json)
            _ = try InstrumentLoader(instrumentPath: path).makeEngine(configuration: EngineConfiguration(maxFrames: 64))
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        (#"{"name": "x", "parameters": {"bus.synth.gain": 40}}"#, "bus.synth.gain must be between -60 dB and 12 dB"),
        (#"{"name": "x", "parameters": {"no.such": 1}}"#, "unknown parameter 'no.such'"),
        (#"{"name": "x", "parameters": {"mic.effect": "flanger"}}"#, "mic.effect is one of off, ringmod"),
        (#"{"name": "x", "parameters": {"fx.reverb.decay": 45}}"#, "fx.reverb.decay must be between 0.1 s and 30 s"),
        (#"{"name": "x", "parameters": {"tuning.a4": 500}}"#, "tuning.a4 must be between 400 Hz and 480 Hz"),
        (#"{"name": "x", "loops": {"drums": "a.wav"}}"#, "unknown loop bus 'drums'"),
        (#"{"name": "x", "loops": {"beat": "missing.wav"}}"#, "missing.wav"),
        (#"{"name": "x", "channels": {"sampler": [17]}}"#, "MIDI channel 17 is not 1–16"),
        (#"{"name": "x", "controls": [{"cc": 200, "parameter": "master.gain"}]}"#, "needs exactly one of cc or note"),
        (#"{"name": "x", "controls": [{"cc": 1, "parameter": "nope"}]}"#, "unknown parameter 'nope'"),
        (#"{"name": "x", "preset": "missing.aupreset"}"#, "missing.aupreset"),
        (#"{"name": "x", "soundfontGain": 20}"#, "soundfontGain: 20.0 is not 0–10"),
        (#"{"parameters": {}}"#, "missing key 'name'"),
        (#"{"name": "x", "#, "not valid JSON"),
    ])
    func mistakesAreNamedClearly(json: String, message: String) {
        let e = error(json)
        #expect(e.contains(message), "got: \(e)")
    }

    @Test func parameterValuesFromTheFileApplyAndSetOverridesThem() throws {
        let path = try write(#"{"name": "x", "parameters": {"bus.synth.gain": -12, "mic.effect": "delay"}}"#)
        var loader = try InstrumentLoader(instrumentPath: path)
        loader.assignments = ["bus.synth.gain=-3"]
        let engine = try loader.makeEngine(configuration: EngineConfiguration(maxFrames: 64))
        let t = engine.parameters
        #expect(t.value(t.index(of: "bus.synth.gain")!) == -3)
        #expect(t.formattedValue(t.index(of: "mic.effect")!) == "delay")
    }

    @Test func sendEffectAndTuningSettingsComeFromTheFile() throws {
        let path = try write(#"{"name": "x", "parameters": {"fx.reverb.decay": 3.5, "fx.chorus.voices": 4, "tuning.a4": 442, "velocity.curve": 0.5}}"#)
        let engine = try InstrumentLoader(instrumentPath: path).makeEngine(configuration: EngineConfiguration(maxFrames: 64))
        let t = engine.parameters
        #expect(t.formattedValue(t.index(of: "fx.reverb.decay")!) == "3.5 s")
        #expect(t.value(t.index(of: "fx.chorus.voices")!) == 4)
        #expect(t.formattedValue(t.index(of: "tuning.a4")!) == "442 Hz")
        #expect(t.value(t.index(of: "velocity.curve")!) == 0.5)
    }
}
