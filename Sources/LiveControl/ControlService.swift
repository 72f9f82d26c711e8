import ALSAIO
import Engine
import LiveLoop
import MIDI
import Synchronization

/// The one way into a running instrument, for every front end (the control socket's text
/// protocol, a web panel): parameters set and read through the engine's parameter table, notes
/// and panic through the render thread's control MIDI ring, the status snapshot. Nothing here
/// touches the render thread otherwise, and nothing waits on it. Any thread.
public final class ControlService: Sendable {
    public let controller: EngineController
    private let source: StatusSource
    private let ring: EventRing<StampedMessage>
    /// The control ring has one producer at a time: front ends on different threads take turns.
    private let producer = Mutex<Void>(())

    public init(renderer: PeriodRenderer, status: StatusSource) {
        controller = renderer.controller
        source = status
        ring = renderer.inbox.rings.control
    }

    /// Every parameter: name, unit, range, default, kind, summary.
    public var parameters: [ParameterDescriptor] { controller.parameters.descriptors }

    /// Applies `name=value` assignments, as `audiograph set` does: every one is validated first,
    /// then all are applied, or none (`set a=1 b=bad` leaves `a` alone).
    public func set(assignments: [String]) throws(ParameterError) {
        try controller.parameters.apply(assignments: assignments)
    }

    /// Sets one parameter to a number (a fader), validated against its range.
    public func set(_ name: String, value: Double) throws(ParameterError) {
        try controller.parameters.set(name, value: value)
    }

    /// A parameter's value as text (`-6 dB`, `on`, `delay`).
    public func get(_ name: String) throws(ParameterError) -> String {
        guard let index = controller.parameters.index(of: name) else {
            throw ParameterError("unknown parameter '\(ParameterError.excerpt(name))'")
        }
        return controller.parameters.formattedValue(index)
    }

    /// A parameter's value as a number, nil for an unknown name.
    public func value(_ name: String) -> Double? {
        controller.parameters.index(of: name).map { controller.parameters.value($0) }
    }

    public func status() -> StatusSnapshot { source.snapshot() }

    /// Plays `message` now, as if it arrived from a MIDI source (the render thread applies it in
    /// the next period). Throws when the message is out of range or the ring is full.
    public func send(_ message: MIDIMessage) throws(ControlError) {
        try Self.check(message)
        let stamped = StampedMessage(message: message, arrivalNanoseconds: MonotonicClock.nanoseconds())
        guard producer.withLock({ _ in ring.push(stamped) }) else {
            throw ControlError("MIDI from the control side is arriving faster than the instrument applies it; try again")
        }
    }

    /// A note on (`velocity` 1–127) or off (`velocity` nil) on `channel` 0–15.
    public func note(channel: UInt8, note: UInt8, velocity: UInt8?) throws(ControlError) {
        if let velocity {
            guard velocity > 0 else { throw ControlError("a note-on's velocity is 1–127 (got 0)") }
            try send(.noteOn(channel: channel, note: note, velocity: velocity))
        } else {
            try send(.noteOff(channel: channel, note: note, velocity: 0))
        }
    }

    /// Silences everything, as `audiograph panic`: sustain off, all notes off, all sound off on
    /// every channel.
    public func panic() throws(ControlError) {
        for channel in 0..<UInt8(16) {
            for controller in [MIDIController.sustainPedal, MIDIController.allNotesOff, MIDIController.allSoundOff] {
                try send(.controlChange(channel: channel, controller: controller, value: 0))
            }
        }
    }

    /// Channel 0–15, data bytes 0–127, bend −8192…8191.
    private static func check(_ message: MIDIMessage) throws(ControlError) {
        guard message.channel <= 15 else { throw ControlError("MIDI channel is 0–15 here (got \(message.channel))") }
        let data: [UInt8]
        switch message {
        case .noteOn(_, let a, let b), .noteOff(_, let a, let b), .polyPressure(_, let a, let b), .controlChange(_, let a, let b):
            data = [a, b]
        case .programChange(_, let a), .channelPressure(_, let a):
            data = [a]
        case .pitchBend(_, let value):
            guard (-8192...8191).contains(value) else { throw ControlError("pitch bend is −8192…8191 (got \(value))") }
            data = []
        case .system:
            data = []
        }
        if let bad = data.first(where: { $0 > 127 }) { throw ControlError("MIDI data bytes are 0–127 (got \(bad))") }
    }
}

/// A control request the instrument refused, in one line.
public struct ControlError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
