import Engine
import Testing

@Suite struct ParameterTests {
    let engine: AudioEngine

    init() throws { engine = try AudioEngine(configuration: EngineConfiguration(maxFrames: 64)) }

    @Test func everyParameterHasAUniqueDottedNameAndAValidDefault() {
        let names = engine.parameters.descriptors.map(\.name)
        #expect(Set(names).count == names.count)
        for d in engine.parameters.descriptors {
            #expect(d.name.contains("."))
            #expect(d.range.contains(d.defaultValue), "\(d.name)")
        }
    }

    @Test func valuesParseWithUnitsChoicesAndToggles() throws {
        try engine.parameters.apply(assignment: "mic.effect=delay")
        try engine.parameters.apply(assignment: "master.lowpass.enabled=on")
        try engine.parameters.apply(assignment: "bus.synth.gain=-6.5")
        let t = engine.parameters
        #expect(t.value(t.index(of: "mic.effect")!) == 2)
        #expect(t.value(t.index(of: "master.lowpass.enabled")!) == 1)
        #expect(t.value(t.index(of: "bus.synth.gain")!) == -6.5)
    }

    @Test(arguments: [
        ("master.lowpass.cutoff=30000", "between 20 Hz and 20000 Hz"),
        ("nosuch.thing=1", "unknown parameter 'nosuch.thing'"),
        ("mic.effect=chorus", "one of off, ringmod"),
        ("bus.synth.mute=maybe", "on or off"),
        ("bus.synth.gain", "expected name=value"),
        ("bus.synth.gain=loud", "needs a number in dB"),
    ])
    func badValuesAreRejectedWithAClearMessage(assignment: String, message: String) {
        #expect {
            try engine.parameters.apply(assignment: assignment)
        } throws: { error in
            String(describing: error).contains(message)
        }
    }
}
