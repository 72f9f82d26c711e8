import DSP
import MIDI

/// Control mapping: the MIDI notes and controllers an instrument file maps to parameters
/// (CC 102 on channel 16 starts the beat loop). A mapped message is consumed: it stores into its
/// parameter and plays nothing. The mappings are resolved at prepare time to plain values
/// (`RenderControl`) in owned storage, so matching one copies no `String` and retains nothing.
struct ControlMapper: ~Copyable {
    private let controls: UnsafeMutableBufferPointer<RenderControl>
    /// The engine controller's table (kept alive by the engine).
    private let parameters: RenderRef<ParameterTable>

    /// Control thread. Fails on a mapping that names no parameter.
    init(_ mappings: [ControlMapping], parameters: ParameterTable, loopPlay: [Int?]) throws(ParameterError) {
        var resolved: [RenderControl] = []
        for m in mappings {
            guard let index = parameters.index(of: m.parameter) else {
                throw ParameterError("control mapping names unknown parameter '\(m.parameter)'")
            }
            let loopBus = loopPlay.firstIndex(of: index) ?? -1
            resolved.append(RenderControl(m, parameter: index, descriptor: parameters.descriptors[index], loopBus: loopBus))
        }
        controls = .allocate(capacity: max(resolved.count, 1))
        _ = controls.initialize(from: resolved)
        self.parameters = RenderRef(parameters)
        controlCount = resolved.count
    }

    private let controlCount: Int

    deinit { controls.deallocate() }

    /// Render thread: if `message` is mapped, stores the value it sets and returns the mapping
    /// (the message is consumed); nil when it is not mapped.
    @_noAllocation
    func apply(_ message: MIDIMessage) -> RenderControl? {
        for i in 0..<controlCount where controls[i].matches(message) {
            store(controls[i], message: message)
            return controls[i]
        }
        return nil
    }

    @_noAllocation
    private func store(_ control: RenderControl, message: MIDIMessage) {
        let index = control.parameter
        let parameters = parameters
        switch message {
        case .controlChange(_, _, let value):
            if control.stepping == .toggle {
                parameters { $0.store(index, value >= 64 ? 1 : 0) }
            } else {
                var v = control.lower + (control.upper - control.lower) * Double(value) / 127
                if control.stepping == .whole { v = RealTimeMath.round(v) }
                let rounded = v
                parameters { $0.store(index, rounded) }
            }
        case .noteOn:
            let current = parameters { $0.value(index) }
            let mid = (control.lower + control.upper) / 2
            let next = current > mid ? control.lower : control.upper
            parameters { $0.store(index, next) }
        default:
            break  // note-offs of a mapped note are consumed
        }
    }
}
