import CALSA

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where an ALSA PCM name leads, read from ALSA's configuration without opening it: a sound
/// server's plugin (`pipewire`, `pulse`, `jack`) or anything else (`hw`, `null`, …). On most
/// desktops `default` is the `pipewire` or `pulse` plugin (Debian's pipewire-alsa makes it so for
/// every process), and those fail differently from a card: the server may not be running, may
/// die and come back, and grants its own period. Control thread.
public enum PCMRoute: Sendable, Equatable {
    case pipewire
    case pulse
    case jack
    /// Another PCM type (`hw`, `null`, `file`, …), the innermost one below `plug`-like wrappers.
    case other(type: String)
    /// ALSA's configuration defines no such PCM (a card name resolved only when opening, a typo).
    case undefined

    /// The route of `name` (`default`, `pipewire`, `plug:pulse`, `hw:0` …).
    public static func of(_ name: String) -> PCMRoute {
        silenceALSAErrorOutput()
        var topStorage: OpaquePointer?
        guard snd_config_update_ref(&topStorage) >= 0, let top = topStorage else { return .undefined }
        defer { snd_config_unref(top) }
        var definition: OpaquePointer?
        guard snd_config_search_definition(top, "pcm", name, &definition) >= 0, let pcm = definition else { return .undefined }
        defer { snd_config_delete(pcm) }
        return route(of: pcm, top: top, depth: 0)
    }

    /// The sound server behind this route, as users know it; nil for a card or another PCM.
    public var serverName: String? {
        switch self {
        case .pipewire: return "PipeWire"
        case .pulse: return "PulseAudio"
        case .jack: return "JACK"
        case .other, .undefined: return nil
        }
    }

    /// The ALSA plugin's type name (`pipewire`, `pulse`, `jack`, `hw`, …).
    public var pluginName: String {
        switch self {
        case .pipewire: return "pipewire"
        case .pulse: return "pulse"
        case .jack: return "jack"
        case .other(let type): return type
        case .undefined: return "unknown"
        }
    }

    /// The sentence a user needs when opening `device` failed with `code` because its server
    /// is not there, e.g. "ALSA default goes to PipeWire, which is not running (Host is down)";
    /// nil when the failure is not that (a card, another error).
    public func serverAbsentExplanation(device: String, code: Int32) -> String? {
        guard let serverName else { return nil }
        // What each plugin returns with its server absent: pipewire EHOSTDOWN, pulse
        // ECONNREFUSED (ENOENT with no socket at all), jack ENOENT or EIO.
        let absent = [EHOSTDOWN, ECONNREFUSED, ENOENT, EIO, ECONNRESET, ENOTCONN]
        guard absent.contains(-code) else { return nil }
        let reason = String(cString: snd_strerror(code))
        let subject = device == pluginName ? "ALSA's \(device) device" : "ALSA \(device)"
        return "\(subject) goes to \(serverName), which is not running (\(reason))"
    }

    /// Follows wrappers (`plug`, `rate`, `softvol`, …) down their `slave.pcm` to the PCM that does
    /// the work; a few levels at most (ALSA itself rejects loops).
    private static func route(of pcm: OpaquePointer, top: OpaquePointer, depth: Int) -> PCMRoute {
        guard let type = string(pcm, "type") else { return .undefined }
        switch type {
        case "pipewire": return .pipewire
        case "pulse": return .pulse
        case "jack": return .jack
        default: break
        }
        guard depth < 4 else { return .other(type: type) }
        var slave: OpaquePointer?
        guard snd_config_search(pcm, "slave.pcm", &slave) >= 0, let slave else { return .other(type: type) }
        if snd_config_get_type(slave) == SND_CONFIG_TYPE_COMPOUND {
            return route(of: slave, top: top, depth: depth + 1)
        }
        guard let slaveName = string(slave, nil) else { return .other(type: type) }
        var definition: OpaquePointer?
        guard snd_config_search_definition(top, "pcm", slaveName, &definition) >= 0, let next = definition else {
            return .other(type: type)
        }
        defer { snd_config_delete(next) }
        return route(of: next, top: top, depth: depth + 1)
    }

    private static func string(_ node: OpaquePointer, _ key: String?) -> String? {
        var leaf: OpaquePointer? = node
        if let key, snd_config_search(node, key, &leaf) < 0 { return nil }
        var value: UnsafePointer<CChar>?
        guard let leaf, snd_config_get_string(leaf, &value) >= 0, let value else { return nil }
        return String(cString: value)
    }
}
