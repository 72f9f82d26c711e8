import AudioTestSupport
import DSP
import Engine
import MIDI
import Testing

/// The master low- and high-pass measured through the whole engine against the analytic biquad
/// response: a synth note is rendered with and without the filter and the level ratio compared
/// with |H(f)| at the note's frequency.
@Suite struct MasterFilterTests {
    let rate = EngineRig.rate
    let toleranceDecibels = 0.05

    /// 20 notes from 41 Hz to 14 kHz.
    static let notes = stride(from: 28, through: 125, by: 5).map { $0 }

    func level(note: Int, settings: [String]) throws -> Double {
        let rig = try EngineRig(blockFrames: 256, settings: settings)
        let out = rig.render(frames: 48000, events: [(0, .noteOn(channel: 1, note: UInt8(note), velocity: 127))])
        return Measure.amplitude(out.left[24000...], at: Measure.noteFrequency(Double(note)), sampleRate: rate)
    }

    @Test(arguments: [(BiquadCoefficients.Kind.lowPass, "lowpass", 2000.0, 6.0), (.highPass, "highpass", 500.0, 3.0)])
    func responseMatchesTheAnalyticBiquad(kind: BiquadCoefficients.Kind, name: String, cutoff: Double, resonance: Double) throws {
        let design = BiquadCoefficients.design(kind, cutoffHz: cutoff, resonanceDecibels: resonance, sampleRate: rate)
        let base = ["synth.sustain=1", "synth.decay=0.01"]
        let filtered = base + ["master.\(name).enabled=on", "master.\(name).cutoff=\(cutoff)", "master.\(name).resonance=\(resonance)"]
        for note in Self.notes {
            let f = Measure.noteFrequency(Double(note))
            let expected = Measure.decibels(design.magnitude(atHz: f, sampleRate: rate))
            guard expected > -60 else { continue }  // below that the measurement, not the filter, limits
            let measured = Measure.decibels(try level(note: note, settings: filtered) / level(note: note, settings: base))
            #expect(abs(measured - expected) < toleranceDecibels, "\(name) at \(f) Hz: \(measured) dB, expected \(expected) dB")
        }
    }

    @Test func switchingTheFilterOnAndOffDoesNotClick() throws {
        let rig = try EngineRig(settings: ["synth.sustain=1", "master.lowpass.cutoff=300", "master.lowpass.resonance=12"])
        var out = rig.render(frames: 9600, events: [(0, .noteOn(channel: 1, note: 57, velocity: 127))]).left
        try rig.engine.parameters.set("master.lowpass.enabled", text: "on")
        out += rig.render(frames: 9600).left
        try rig.engine.parameters.set("master.lowpass.enabled", text: "off")
        out += rig.render(frames: 9600).left
        try rig.engine.parameters.set("master.lowpass.cutoff", value: 5000)
        out += rig.render(frames: 9600).left
        Measure.expectNoClick(out)
    }
}
