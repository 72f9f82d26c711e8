import CALSA

extension SequencerHandle {
    /// The ports subscribed to write into `port` (what `aconnect -l` lists as "Connected From"),
    /// named from `all`. One ioctl per subscriber and no buffered state of the handle, so it may be
    /// asked while another thread reads events from the same handle. Control or status thread.
    static func sources(_ seq: OpaquePointer, into port: SequencerAddress, among all: [SequencerPortInfo]) -> [SequencerPortInfo] {
        var storage: OpaquePointer?
        guard snd_seq_query_subscribe_malloc(&storage) >= 0, let query = storage else { return [] }
        defer { snd_seq_query_subscribe_free(query) }
        var root = snd_seq_addr_t(client: port.client, port: port.port)
        snd_seq_query_subscribe_set_root(query, &root)
        snd_seq_query_subscribe_set_type(query, SND_SEQ_QUERY_SUBS_WRITE)
        snd_seq_query_subscribe_set_index(query, 0)
        var addresses: [SequencerAddress] = []
        // The kernel numbers subscriptions from 0; the bound only guards against a table that keeps changing.
        while addresses.count < 256, snd_seq_query_port_subscribers(seq, query) >= 0 {
            if let a = snd_seq_query_subscribe_get_addr(query)?.pointee { addresses.append(SequencerAddress(client: a.client, port: a.port)) }
            snd_seq_query_subscribe_set_index(query, snd_seq_query_subscribe_get_index(query) + 1)
        }
        return addresses.map { address in
            all.first { $0.address == address }
                ?? SequencerPortInfo(client: Int(address.client), clientName: "client \(address.client)", port: Int(address.port),
                                     portName: "port \(address.port)", capabilities: 0, types: 0)
        }
    }
}
