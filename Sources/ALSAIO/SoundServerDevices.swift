import CALSA

/// A PCM of ALSA's configuration that leads to a sound server, and whether that server answers.
public struct SoundServerDevice: Sendable, Equatable {
    /// The PCM name (`pipewire`, `pulse`, `default`, …).
    public var name: String
    public var route: PCMRoute
    /// ALSA's description of the PCM.
    public var description: String
    /// nil when the server answered; otherwise why not, in words ("Host is down").
    public var problem: String?
}

extension PCMDevice {
    /// The PCMs ALSA advertises that lead to PipeWire or PulseAudio (JACK is listed natively, and
    /// opening ALSA's `jack` PCM could start a JACK server), each opened for playback and closed at
    /// once to see whether its server runs. What the servers themselves offer (sinks, nodes) is
    /// not visible through ALSA: each plugin plays to its server's default sink. Control thread.
    public static func soundServerDevices() -> [SoundServerDevice] {
        var seen: Set<String> = []
        return listDevices().compactMap { info in
            guard info.supportsPlayback, seen.insert(info.name).inserted else { return nil }
            let route = PCMRoute.of(info.name)
            guard route == .pipewire || route == .pulse else { return nil }
            var opened: OpaquePointer?
            let result = snd_pcm_open(&opened, info.name, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
            if let opened { snd_pcm_close(opened) }
            return SoundServerDevice(
                name: info.name, route: route, description: info.description,
                problem: result < 0 ? String(cString: snd_strerror(result)) : nil)
        }
    }
}
