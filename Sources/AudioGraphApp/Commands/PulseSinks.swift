import CPulseSinks

/// The sinks of the running PulseAudio server, or of PipeWire through pipewire-pulse — what ALSA's
/// `pulse` and `pipewire` plugins play to (each to the default one) — through libpulse loaded at
/// run time, so the package does not depend on it. Control thread.
enum PulseSinks {
    struct Sink: Equatable {
        var name: String
        var description: String
        var rate: Int
        var channels: Int
        var isDefault: Bool
    }

    /// The server's name and version ("pulseaudio 16.1", "PulseAudio (on PipeWire 0.3.65) 15.0.0")
    /// and its sinks; or why there are none to list.
    enum Listing {
        case sinks(server: String, [Sink])
        case noLibrary
        case noServer
    }

    static func list(timeoutMilliseconds: Int32 = 2000) -> Listing {
        final class Collected { var sinks: [Sink] = [] }
        let collected = Collected()
        var server = [CChar](repeating: 0, count: 256)
        let result = server.withUnsafeMutableBufferPointer { buffer in
            ag_pulse_list_sinks(
                timeoutMilliseconds, buffer.baseAddress, buffer.count,
                { sink, context in
                    guard let sink, let context else { return }
                    let s = sink.pointee
                    Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue().sinks.append(
                        Sink(name: String(cString: s.name), description: String(cString: s.description), rate: Int(s.rate),
                             channels: Int(s.channels), isDefault: s.is_default != 0))
                }, Unmanaged.passUnretained(collected).toOpaque())
        }
        switch result {
        case AG_PULSE_OK: return .sinks(server: server.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }, collected.sinks)
        case AG_PULSE_NO_LIBRARY: return .noLibrary
        default: return .noServer
        }
    }
}
