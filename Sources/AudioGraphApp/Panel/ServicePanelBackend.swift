import Engine
import Foundation
import LiveControl
import PanelProtocol

/// The panel's way into the instrument: the control service, as the control socket uses it. The
/// page's state is the status snapshot plus every parameter's value; its changes are the
/// parameter table's validated `set`, its notes and panic the control service's MIDI path.
struct ServicePanelBackend: PanelBackend {
    let service: ControlService
    /// What is connected to the sequencer's input (as asked on the command line).
    let midiSources: [String]
    let startupMilliseconds: Double?
    let parameters: [PanelParameter]

    init(service: ControlService, midiSources: [String], startupMilliseconds: Double?) {
        self.service = service
        self.midiSources = midiSources
        self.startupMilliseconds = startupMilliseconds
        parameters = service.parameters.map(Self.panelParameter)
    }

    static func panelParameter(_ d: ParameterDescriptor) -> PanelParameter {
        let kind: PanelParameter.Kind, choices: [String]
        switch d.kind {
        case .continuous: (kind, choices) = (.continuous, [])
        case .integer: (kind, choices) = (.integer, [])
        case .toggle: (kind, choices) = (.toggle, [])
        case .choice(let names): (kind, choices) = (.choice, names)
        }
        return PanelParameter(name: d.name, unit: d.unit, min: d.range.lowerBound, max: d.range.upperBound, defaultValue: d.defaultValue,
                              kind: kind, choices: choices, summary: d.summary)
    }

    func set(_ name: String, value: Double) throws(PanelError) {
        do { try service.set(name, value: value) } catch { throw PanelError(error.description) }
    }

    func note(channel: Int, note: Int, velocity: Int) throws(PanelError) {
        do { try service.note(channel: UInt8(channel), note: UInt8(note), velocity: velocity > 0 ? UInt8(velocity) : nil) } catch {
            throw PanelError(error.description)
        }
    }

    func panic() throws(PanelError) {
        do { try service.panic() } catch { throw PanelError(error.description) }
    }

    func state() -> PanelState {
        let s = service.status()
        func db(_ v: Double) -> Double { max(-160, (v * 10).rounded() / 10) }
        return PanelState(
            midiSources: midiSources, midiNotes: s.parts.map(\.notes),
            parts: s.parts.map { PanelState.Part(channel: $0.channel, program: $0.program, voices: $0.voices, level: db($0.levelDecibels)) },
            inputPeak: s.inputPeakDecibels?.map(db), inputRMS: s.inputRMSDecibels?.map(db), pitchHz: s.detectedPitchHz,
            buses: s.buses.map { PanelState.Bus(name: $0.name, peak: db($0.peakDecibels), rms: db($0.rmsDecibels)) },
            limiterReduction: (s.limiterReductionDecibels * 10).rounded() / 10, outputPeak: s.outputPeakDecibels.map(db),
            outputRMS: s.outputRMSDecibels.map(db),
            health: .init(xruns: s.xruns, dspLoad: s.dspLoadPercent, worstDspLoad: s.worstDspLoadPercent, voices: s.voices,
                          startupMilliseconds: startupMilliseconds, playback: s.playback, capture: s.capture, realtime: s.realtime,
                          sampler: s.sampler, audioServer: nil),
            values: s.parameters)
    }
}
