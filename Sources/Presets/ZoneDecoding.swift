/// Decoding of `Zones[i]` and `Connections[i]` dictionaries.
extension PresetDecoder {
    /// A zone, or `nil` (with a warning) when it has no `waveform` and so cannot sound.
    mutating func decodeZone(_ reader: PlistDictionaryReader, index: Int) throws(PresetError) -> Zone? {
        let id = try identifier(reader, index: index)
        guard let waveform = try reader.integer("waveform") else {
            warn(reader.keyPath, "zone \(id) has no waveform; skipped")
            return nil
        }
        var zone = Zone(id: id, waveform: waveform)
        zone.enabled = try reader.bool("enabled") ?? true
        zone.name = try reader.string("name")
        zone.rootKey = try reader.integer("root key").map { clamped($0, to: 0...127, reader.path("root key")) }
        zone.minKey = try midiRange(reader, "min key", default: 0)
        zone.maxKey = try midiRange(reader, "max key", default: 127)
        zone.minVelocity = try midiRange(reader, "min vel", default: 0)
        zone.maxVelocity = try midiRange(reader, "max vel", default: 127)
        if zone.enabled && (zone.minKey > zone.maxKey || zone.minVelocity > zone.maxVelocity) {
            warn(reader.keyPath, "zone \(id) has an empty key or velocity range; it never sounds")
        }
        zone.loopEnabled = try reader.bool("loop enabled") ?? false
        zone.loopStart = try frame(reader, "loop start")
        // Stored inclusive (last frame of the loop); the model is half-open.
        zone.loopEnd = try frame(reader, "loop end").map { $0 + 1 }
        if let start = zone.loopStart, let end = zone.loopEnd, start >= end {
            warn(reader.keyPath, "zone \(id): loop start \(start) is not before loop end \(end - 1)")
        }
        zone.gainDecibels = bounded(try reader.double("gain") ?? 0, to: Bounds.gainDecibels, reader.path("gain"), fallback: 0)
        zone.coarseTuneSemitones = clamped(
            try reader.integer("coarse tune") ?? 0, to: -127...127, reader.path("coarse tune"))
        zone.fineTuneCents = bounded(
            try reader.double("fine tune") ?? 0, to: Bounds.fineTuneCents, reader.path("fine tune"), fallback: 0)
        zone.pitchTracking = try reader.bool("pitch tracking") ?? true
        return zone
    }

    /// 2^40 frames is over 200 days at 48 kHz: anything larger is corrupt (and would overflow `+ 1`).
    static let maximumFrame = 1 << 40

    private mutating func frame(_ reader: PlistDictionaryReader, _ key: String) throws(PresetError) -> Int? {
        guard let value = try reader.integer(key) else { return nil }
        guard (0...Self.maximumFrame).contains(value) else {
            warn(reader.path(key), "frame \(value) is impossible; ignored (the file's loop is used)")
            return nil
        }
        return value
    }

    /// A connection, or `nil` (with a warning) when it has no destination.
    mutating func decodeConnection(_ reader: PlistDictionaryReader, index: Int, layerID: Int) throws(PresetError)
        -> Connection?
    {
        let id = try identifier(reader, index: index)
        guard let destinationCode = try reader.integer("destination") else {
            warn(reader.keyPath, "connection \(id) has no destination; skipped")
            return nil
        }
        let connection = Connection(
            id: id, enabled: try reader.bool("enabled") ?? true, sourceCode: try reader.integer("source") ?? 0,
            controlCode: try reader.integer("control") ?? 0, destinationCode: destinationCode,
            transform: ConnectionTransform(rawValue: try reader.integer("transform") ?? 1),
            inverse: try reader.bool("inverse") ?? false, bipolar: try reader.bool("bipolar") ?? false,
            scale: try amount(reader, "scale"), minValue: try amount(reader, "min value"),
            maxValue: try amount(reader, "max value"), name: try reader.string("name"))
        if connection.enabled { checkSupported(connection, at: reader.keyPath, layerID: layerID) }
        return connection
    }

    private mutating func amount(_ reader: PlistDictionaryReader, _ key: String) throws(PresetError) -> Double? {
        try reader.double(key).map { bounded($0, to: Bounds.connectionAmount, reader.path(key), fallback: 0) }
    }

    private mutating func checkSupported(_ connection: Connection, at keyPath: String, layerID: Int) {
        if case .unknown(let code) = connection.source {
            warn(keyPath, "unknown source code \(code); connection ignored")
        }
        if case .unknown(let code) = connection.control {
            warn(keyPath, "unknown control code \(code); connection ignored")
        }
        if case .unknown(let code) = connection.destination {
            warn(
                keyPath,
                "unknown destination code \(code) (0x\(String(code, radix: 16, uppercase: true))); connection ignored")
        } else if connection.destinationLayerID != layerID {
            warn(keyPath, "destination belongs to layer \(connection.destinationLayerID), not \(layerID)")
        }
        if case .unknown(let raw) = connection.transform {
            warn(keyPath, "unknown transform \(raw); treated as linear")
        }
        if connection.scale == nil && (connection.minValue == nil || connection.maxValue == nil) {
            warn(keyPath, "neither scale nor min/max value; the connection has no effect")
        }
    }
}
