import ALSAIO
import JACKIO

/// The sound servers part of `audiograph ports`: the ALSA PCMs that lead to PipeWire or PulseAudio
/// (and whether the server answers), the sinks of the PulseAudio server (or PipeWire's, through
/// pipewire-pulse) they play to, then the JACK graph's ports when a JACK server runs.
enum ServerPorts {
    static func lines() -> [String] {
        var lines = ["Sound servers through ALSA's plugins (`--device NAME`; each plays to its server's default sink):"]
        let devices = PCMDevice.soundServerDevices()
        if devices.isEmpty { lines.append("  (no PipeWire or PulseAudio PCM in ALSA's configuration)") }
        for d in devices {
            let state = d.problem.map { "not running (\($0))" } ?? "running"
            lines.append("  \(d.name)  → \(d.route.serverName ?? d.route.pluginName): \(state)  \(d.description)")
        }
        lines += sinkLines()
        do {
            let ports = try JACKClient.listPorts()
            lines.append("JACK ports (`--driver jack`; `--jack-connect` connects to the physical playback ports):")
            lines += ports.isEmpty ? ["  (none)"] : ports.map { "  \($0)" }
        } catch {
            lines.append("JACK: " + (error.serverAbsent ? "no JACK server running" : "\(error)"))
        }
        return lines
    }

    /// The sinks, the default one marked; one line when there is no server or no libpulse.
    private static func sinkLines() -> [String] {
        switch PulseSinks.list() {
        case .noLibrary:
            return ["Sinks: libpulse.so.0 is not installed (package libpulse0), so they are not listed"]
        case .noServer:
            return ["Sinks: no PulseAudio server (nor pipewire-pulse) answers"]
        case .sinks(let server, let sinks):
            var lines = ["Sinks of \(server.isEmpty ? "the PulseAudio server" : server) (the plugins play to the default one):"]
            if sinks.isEmpty { lines.append("  (none)") }
            for sink in sinks {
                let mark = sink.isDefault ? "  (default)" : ""
                lines.append("  \(sink.name)  \(sink.description), \(sink.rate) Hz, \(sink.channels) ch\(mark)")
            }
            return lines
        }
    }
}
