import DSP
import MicEffects

/// Every parameter the engine exposes, registered into a `ParameterTableBuilder`, with the indices the
/// render thread reads at block start. Names are dotted and carry their unit in the descriptor.
struct EngineParameters {
    struct Bus { var gain: Int; var mute: Int; var pan: Int }
    struct Filter { var enabled: Int; var cutoff: Int; var resonance: Int }

    var buses: [Bus] = []
    /// `loop.<bus>.play` by `BusID.rawValue`; nil for buses without a loop player.
    var loopPlay: [Int?] = Array(repeating: nil, count: BusID.allCases.count)
    var masterGain = 0
    var masterLowPass: Filter
    var masterHighPass: Filter
    var masterLimiter = (enabled: 0, ceiling: 0)
    var fileHighPass: Filter
    var synthAttack = 0, synthDecay = 0, synthSustain = 0, synthRelease = 0, synthBend = 0, synthVoices = 0
    var followEnabled = 0, followInterval = 0
    var samplerVoices = 0
    var fx = SendEffectParameters()
    var tuningA4 = 0, velocityCurve = 0
    var mic = MicParameters()

    struct MicParameters {
        var effect = 0, mix = 0, ringFrequency = 0, delayTime = 0, delayFeedback = 0, delayMix = 0
        var averagePoints = 0, lowpassCutoff = 0, pitchShift = 0
    }

    /// Names of `mic.effect`'s choices, in the order the mic chain numbers them (its raw values).
    static let micEffectNames = MicEffectKind.allCases.map(\.name)

    init(table t: ParameterTableBuilder, maxSynthVoices: Int, maxSamplerVoices: Int) {
        for bus in BusID.allCases {
            let n = "bus.\(bus.name)"
            buses.append(Bus(
                gain: t.register(.init("\(n).gain", unit: "dB", range: -60...12, default: 0, summary: "\(bus.name) bus level")),
                mute: t.register(.init("\(n).mute", range: 0...1, default: 0, kind: .toggle, summary: "mute the \(bus.name) bus")),
                pan: t.register(.init("\(n).pan", range: -1...1, default: 0, summary: "\(bus.name) bus pan, −1 left … +1 right"))))
        }
        for bus in [BusID.guitar, .beat, .file] {
            loopPlay[bus.rawValue] = t.register(.init("loop.\(bus.name).play", range: 0...1, default: 0, kind: .toggle,
                                             summary: "play the \(bus.name) loop (starts stopped; map it to a note or CC)"))
        }
        func filter(_ prefix: String, _ what: String, cutoff: Double, enabled: Bool) -> Filter {
            Filter(
                enabled: t.register(.init("\(prefix).enabled", range: 0...1, default: enabled ? 1 : 0, kind: .toggle, summary: "switch the \(what) on or off")),
                cutoff: t.register(.init("\(prefix).cutoff", unit: "Hz", range: 20...20000, default: cutoff, summary: "\(what) cutoff frequency")),
                resonance: t.register(.init("\(prefix).resonance", unit: "dB", range: -20...24, default: 0,
                                            summary: "\(what) resonance: gain at the cutoff above Butterworth")))
        }
        masterGain = t.register(.init("master.gain", unit: "dB", range: -60...12, default: 0, summary: "master output level"))
        masterLowPass = filter("master.lowpass", "master low-pass", cutoff: 20000, enabled: false)
        masterHighPass = filter("master.highpass", "master high-pass", cutoff: 20, enabled: false)
        masterLimiter = (
            enabled: t.register(.init("master.limiter.enabled", range: 0...1, default: 1, kind: .toggle,
                                      summary: "master peak limiter: nothing above the ceiling, unchanged below it (1.5 ms look-ahead)")),
            ceiling: t.register(.init("master.limiter.ceiling", unit: "dB", range: -24...0, default: -0.1,
                                      summary: "master limiter ceiling, dBFS (sample peak)")))
        fileHighPass = filter("file.highpass", "file player's high-pass insert", cutoff: 800, enabled: true)

        synthAttack = t.register(.init("synth.attack", unit: "s", range: 0.001...10, default: 0.01, summary: "synth envelope attack time"))
        synthDecay = t.register(.init("synth.decay", unit: "s", range: 0.001...10, default: 0.2, summary: "synth envelope decay time"))
        synthSustain = t.register(.init("synth.sustain", range: 0...1, default: 0.7, summary: "synth envelope sustain level"))
        synthRelease = t.register(.init("synth.release", unit: "s", range: 0.005...10, default: 0.3, summary: "synth envelope release time"))
        synthBend = t.register(.init("synth.bendrange", unit: "semitones", range: 0...24, default: 2, kind: .integer, summary: "synth pitch-bend range (channels that set none with RPN 0)"))
        synthVoices = t.register(.init("synth.voices", range: 1...Double(maxSynthVoices), default: Double(min(32, maxSynthVoices)), kind: .integer,
                                       summary: "synth polyphony (voices beyond it are stolen with a fade)"))
        followEnabled = t.register(.init("synth.follow", range: 0...1, default: 0, kind: .toggle,
                                         summary: "pitch follower: a synth voice sings the mic's detected pitch"))
        followInterval = t.register(.init("synth.follow.interval", unit: "semitones", range: -24...24, default: 0, kind: .integer,
                                          summary: "pitch follower transposition"))

        samplerVoices = t.register(.init("sampler.voices", range: 0...Double(maxSamplerVoices), default: 0, kind: .integer,
                                         summary: "sampler voices shared by all parts; 0 = the whole pool (each part also within its preset's voice count)"))
        mic.effect = t.register(.init("mic.effect", range: 0...Double(Self.micEffectNames.count - 1), default: 0,
                                      kind: .choice(Self.micEffectNames), summary: "effect on the mic/line input"))
        mic.mix = t.register(.init("mic.mix", range: 0...1, default: 1, summary: "mic effect wet/dry mix"))
        mic.ringFrequency = t.register(.init("mic.ringmod.frequency", unit: "Hz", range: 0...4000, default: 440, summary: "ring modulator carrier"))
        mic.delayTime = t.register(.init("mic.delay.time", unit: "s", range: 0...2, default: 0.35, summary: "delay time"))
        mic.delayFeedback = t.register(.init("mic.delay.feedback", range: 0...0.95, default: 0.4, summary: "delay feedback"))
        mic.delayMix = t.register(.init("mic.delay.mix", range: 0...1, default: 0.5, summary: "delay wet/dry"))
        mic.averagePoints = t.register(.init("mic.average.points", range: 3...101, default: 9, kind: .integer, summary: "moving-average length in samples"))
        mic.lowpassCutoff = t.register(.init("mic.lowpass.cutoff", unit: "Hz", range: 20...4000, default: 1000, summary: "windowed-sinc low-pass cutoff"))
        mic.pitchShift = t.register(.init("mic.pitchshift.semitones", unit: "semitones", range: -12...12, default: 0, summary: "pitch shift"))
        fx = SendEffectParameters(table: t)
        tuningA4 = t.register(.init("tuning.a4", unit: "Hz", range: MasterTuning.a4Range, default: 440,
                                    summary: "master tuning: frequency of A4 for sampler and synth (each part's RPN 1/2 adds to it)"))
        velocityCurve = t.register(.init("velocity.curve", range: VelocityCurve.gammaRange, default: 1,
                                         summary: "key velocity curve before each preset's own: 127·(v/127)^γ; 1 linear, 0.5 soft, 2 hard"))
    }
}
