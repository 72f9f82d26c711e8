import CJACK

/// A port of the running JACK graph, as `audiograph ports` lists it.
public struct JACKPortInfo: Sendable, Equatable, CustomStringConvertible {
    public var name: String
    /// "audio" or "midi" (JACK's type string otherwise).
    public var kind: String
    /// Receives data (a playback port, our `in_L`) rather than sends it.
    public var isInput: Bool
    /// Stands for hardware (the driver's `system:…` ports).
    public var isPhysical: Bool

    public var description: String {
        "\(name)  [\(kind) \(isInput ? "in" : "out")\(isPhysical ? ", physical" : "")]"
    }
}

extension JACKClient {
    /// Every port of the graph the server `serverName` (nil: the default one) runs, through a
    /// short-lived client; throws with `serverAbsent` when no server runs. Control thread.
    public static func listPorts(serverName: String? = nil) throws(JACKError) -> [JACKPortInfo] {
        cjack_silence_messages()
        var status = jack_status_t(0)
        let opened: OpaquePointer? =
            if let serverName {
                serverName.withCString { cjack_client_open("audiograph-ports", JackNoStartServer, &status, $0) }
            } else {
                cjack_client_open("audiograph-ports", JackNoStartServer, &status, nil)
            }
        guard let client = opened else {
            let (reason, absent) = JACKError.describe(status)
            throw JACKError(operation: "jack_client_open(\"audiograph-ports\")", reason: reason, serverAbsent: absent)
        }
        defer { jack_client_close(client) }
        return portNames(client, type: nil, flags: 0).compactMap { name in
            guard let port = jack_port_by_name(client, name) else { return nil }
            let flags = UInt32(jack_port_flags(port))
            let type = jack_port_type(port).map { String(cString: $0) } ?? ""
            let kind = type == String(cString: cjack_audio_type) ? "audio" : type == String(cString: cjack_midi_type) ? "midi" : type
            return JACKPortInfo(
                name: name, kind: kind, isInput: flags & JackPortIsInput.rawValue != 0,
                isPhysical: flags & JackPortIsPhysical.rawValue != 0)
        }
    }
}
