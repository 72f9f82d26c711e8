import CALSA

/// Opening the sequencer and reading its client/port tables: shared by the client, the
/// sender and `listPorts`. Control or sequencer thread (allocates).
enum SequencerHandle {
    static func open(clientName: String, mode: Int32) throws(ALSAError) -> OpaquePointer {
        silenceALSAErrorOutput()
        var opened: OpaquePointer?
        let result = snd_seq_open(&opened, "default", mode, 0)
        guard result >= 0, let seq = opened else {
            throw ALSAError(
                operation: "snd_seq_open(\"default\")", code: result < 0 ? result : -ENOENT,
                detail: "is the ALSA sequencer available (/dev/snd/seq, kernel module snd-seq)?")
        }
        snd_seq_set_client_name(seq, clientName)
        return seq
    }

    /// Every port of every client, in client then port order.
    static func allPorts(_ seq: OpaquePointer) -> [SequencerPortInfo] {
        var clientStorage: OpaquePointer?
        var portStorage: OpaquePointer?
        snd_seq_client_info_malloc(&clientStorage)
        snd_seq_port_info_malloc(&portStorage)
        guard let clientInfo = clientStorage, let portInfo = portStorage else { return [] }
        defer {
            snd_seq_client_info_free(clientInfo)
            snd_seq_port_info_free(portInfo)
        }
        var ports: [SequencerPortInfo] = []
        snd_seq_client_info_set_client(clientInfo, -1)
        while snd_seq_query_next_client(seq, clientInfo) >= 0 {
            let client = snd_seq_client_info_get_client(clientInfo)
            let clientName = String(cString: snd_seq_client_info_get_name(clientInfo))
            let kernel = isKernel(clientInfo)
            snd_seq_port_info_set_client(portInfo, client)
            snd_seq_port_info_set_port(portInfo, -1)
            while snd_seq_query_next_port(seq, portInfo) >= 0 {
                ports.append(info(portInfo, clientName: clientName, isKernelClient: kernel))
            }
        }
        return ports
    }

    private static func isKernel(_ clientInfo: OpaquePointer) -> Bool {
        snd_seq_client_info_get_type(clientInfo) == SND_SEQ_KERNEL_CLIENT
    }

    private static func info(_ portInfo: OpaquePointer, clientName: String, isKernelClient: Bool) -> SequencerPortInfo {
        SequencerPortInfo(
            client: Int(snd_seq_port_info_get_client(portInfo)), clientName: clientName,
            port: Int(snd_seq_port_info_get_port(portInfo)),
            portName: String(cString: snd_seq_port_info_get_name(portInfo)),
            capabilities: snd_seq_port_info_get_capability(portInfo), types: snd_seq_port_info_get_type(portInfo),
            isKernelClient: isKernelClient)
    }
}
