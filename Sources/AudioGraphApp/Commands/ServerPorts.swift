import ALSAIO
import JACKIO

/// The sound servers part of `audiograph ports`: the ALSA PCMs that lead to PipeWire or PulseAudio
/// (and whether the server answers), then the JACK graph's ports when a JACK server runs.
enum ServerPorts {
    static func lines() -> [String] {
        var lines = ["Sound servers through ALSA's plugins (`--device NAME`; each plays to its server's default sink):"]
        let devices = PCMDevice.soundServerDevices()
        if devices.isEmpty { lines.append("  (no PipeWire or PulseAudio PCM in ALSA's configuration)") }
        for d in devices {
            let state = d.problem.map { "not running (\($0))" } ?? "running"
            lines.append("  \(d.name)  → \(d.route.serverName ?? d.route.pluginName): \(state)  \(d.description)")
        }
        do {
            let ports = try JACKClient.listPorts()
            lines.append("JACK ports (`--driver jack`; `--jack-connect` connects to the physical playback ports):")
            lines += ports.isEmpty ? ["  (none)"] : ports.map { "  \($0)" }
        } catch {
            lines.append("JACK: " + (error.serverAbsent ? "no JACK server running" : "\(error)"))
        }
        return lines
    }
}
