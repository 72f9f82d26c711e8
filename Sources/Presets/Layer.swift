/// One layer of the instrument: its zones plus the articulation they share (envelopes, filter,
/// LFOs, modulation connections). Layers are independent and all sound.
///
/// Pure data: any thread may read it.
public struct Layer: Sendable, Equatable {
    /// `ID`: connection codes embed this ID (bits 8–15), not the array index.
    public var id: Int
    /// `min key`/`max key`: the layer's inclusive key range (default 0…127).
    public var minKey: Int
    public var maxKey: Int
    /// `key offset`, semitones, added to the played key before zone lookup and pitch [GUESS, see
    /// the format notes §4.2].
    public var keyOffset: Int
    /// `gain`, decibels (0 if absent).
    public var gainDecibels: Double
    public var triggerMode: TriggerMode
    public var filter: Filter
    /// `Envelopes`, in file order; ID 0 is the amp envelope, ID 1 (if any) the filter envelope.
    public var envelopes: [Envelope]
    public var lfos: [LFO]
    /// The modulation routing. When the file has no `Connections` list this holds
    /// `Connection.dlsDefaults(layerID:)` and `usesDefaultConnections` is true.
    public var connections: [Connection]
    public var usesDefaultConnections: Bool
    /// `Zones`, in file order (disabled ones included).
    public var zones: [Zone]

    /// Pass `connections: nil` for a layer whose file has no `Connections` list: it gets the DLS
    /// defaults and `usesDefaultConnections` is set.
    public init(
        id: Int, minKey: Int = 0, maxKey: Int = 127, keyOffset: Int = 0, gainDecibels: Double = 0,
        triggerMode: TriggerMode = .normal, filter: Filter = Filter(), envelopes: [Envelope] = [Envelope(id: 0)],
        lfos: [LFO] = [LFO(id: 0)], connections: [Connection]? = nil, zones: [Zone] = []
    ) {
        self.id = id
        self.minKey = minKey
        self.maxKey = maxKey
        self.keyOffset = keyOffset
        self.gainDecibels = gainDecibels
        self.triggerMode = triggerMode
        self.filter = filter
        self.envelopes = envelopes
        self.lfos = lfos
        self.connections = connections ?? Connection.dlsDefaults(layerID: id)
        self.usesDefaultConnections = connections == nil
        self.zones = zones
    }

    /// The amp envelope (ID 0), if the layer has one.
    public var ampEnvelope: Envelope? { envelopes.first { $0.id == 0 } }

    /// The enabled zones, in file order.
    public var enabledZones: [Zone] { zones.filter(\.enabled) }

    /// The key to match zones against for a played MIDI key: `key + keyOffset` when the played
    /// key lies in the layer's range, else `nil` (the layer is silent for it). Pitch is then
    /// computed from this key and the zone's root key [GUESS, format notes §4.2].
    public func zoneKey(forPlayedKey key: Int) -> Int? {
        minKey <= key && key <= maxKey ? key + keyOffset : nil
    }
}

/// `trigger mode` of a layer.
public enum TriggerMode: StoredCode {
    /// 0 or absent: note-off starts the release.
    case normal
    /// 11: the note plays to its end; note-off is ignored.
    case oneShot
    /// Any other stored value, kept as is (the decoder warns).
    case unknown(Int)

    public static let namedCodes: [(value: TriggerMode, code: Int)] = [(.normal, 0), (.oneShot, 11)]
    public var unknownCode: Int? { if case .unknown(let code) = self { code } else { nil } }
}
