import PanelProtocol
import Synchronization

/// A backend that records what reached it, for checking that refused messages apply nothing.
final class FakeBackend: PanelBackend {
    let parameters: [PanelParameter] = [
        PanelParameter(name: "bus.mic.gain", unit: "dB", min: -60, max: 12, defaultValue: 0, kind: .continuous, summary: "mic bus level"),
        PanelParameter(name: "bus.mic.mute", unit: "", min: 0, max: 1, defaultValue: 0, kind: .toggle, summary: "mute"),
        PanelParameter(name: "mic.effect", unit: "", min: 0, max: 2, defaultValue: 0, kind: .choice, choices: ["off", "ringmod", "delay"], summary: "effect"),
        PanelParameter(name: "mic.average.points", unit: "", min: 3, max: 101, defaultValue: 9, kind: .integer, summary: "points"),
    ]
    let calls = Mutex<[String]>([])

    var byName: [String: PanelParameter] { Dictionary(uniqueKeysWithValues: parameters.map { ($0.name, $0) }) }
    var recorded: [String] { calls.withLock { $0 } }

    func set(_ name: String, value: Double) throws(PanelError) { calls.withLock { $0.append("set \(name) \(value)") } }
    func note(channel: Int, note: Int, velocity: Int) throws(PanelError) { calls.withLock { $0.append("note \(channel) \(note) \(velocity)") } }
    func panic() throws(PanelError) { calls.withLock { $0.append("panic") } }
    func state() -> PanelState {
        PanelState(midiSources: [], midiNotes: Array(repeating: 0, count: 16), parts: [], inputPeak: nil, inputRMS: nil, pitchHz: 440, buses: [],
                   limiterReduction: 0, outputPeak: [-160, -160], outputRMS: [-160, -160],
                   health: .init(xruns: 0, dspLoad: 1, worstDspLoad: 2, voices: 0, startupMilliseconds: nil, playback: "paced", capture: nil,
                                 realtime: "SCHED_OTHER", sampler: "none", audioServer: nil),
                   values: ["bus.mic.gain": 0])
    }
}
