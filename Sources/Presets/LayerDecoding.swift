/// Decoding of one `Instrument.Layers[i]` dictionary and its articulation (filter, envelopes,
/// LFOs). Zones and connections are in their own files.
extension PresetDecoder {
    mutating func decodeLayer(_ reader: PlistDictionaryReader, index: Int) throws(PresetError) -> Layer {
        let id = try identifier(reader, index: index)
        let minKey = try midiRange(reader, "min key", default: 0)
        let maxKey = try midiRange(reader, "max key", default: 127)
        if minKey > maxKey { warn(reader.keyPath, "min key \(minKey) > max key \(maxKey): the layer never sounds") }
        let triggerMode = TriggerMode(rawValue: try reader.integer("trigger mode") ?? 0)
        if case .unknown(let raw) = triggerMode {
            warn(reader.path("trigger mode"), "unknown value \(raw); notes are released normally")
        }
        let connections: [Connection]?
        if let connectionReaders = try reader.dictionaries(inArray: "Connections") {
            try checkCount(
                connectionReaders.count, max: Self.maximumConnectionsPerLayer, "connections", at: reader.path("Connections"))
            var decoded: [Connection] = []
            for (index, connection) in connectionReaders.enumerated() {
                if let value = try decodeConnection(connection, index: index, layerID: id) { decoded.append(value) }
            }
            connections = decoded
        } else {
            connections = nil
        }
        var zones: [Zone] = []
        let zoneReaders = try reader.dictionaries(inArray: "Zones") ?? []
        try checkCount(zoneReaders.count, max: Self.maximumZonesPerLayer, "zones", at: reader.path("Zones"))
        for (index, zone) in zoneReaders.enumerated() {
            if let value = try decodeZone(zone, index: index) { zones.append(value) }
        }
        if zones.isEmpty { warn(reader.path("Zones"), "no zones: the layer makes no sound") }
        return Layer(
            id: id, minKey: minKey, maxKey: maxKey,
            keyOffset: clamped(try reader.integer("key offset") ?? 0, to: -127...127, reader.path("key offset")),
            gainDecibels: bounded(try reader.double("gain") ?? 0, to: Bounds.gainDecibels, reader.path("gain"), fallback: 0),
            triggerMode: triggerMode,
            filter: try decodeFilter(reader), envelopes: try decodeEnvelopes(reader),
            lfos: try decodeLFOs(reader), connections: connections, zones: zones)
    }

    /// `ID`, or the array index with a warning when absent.
    mutating func identifier(_ reader: PlistDictionaryReader, index: Int) throws(PresetError) -> Int {
        if let id = try reader.integer("ID") { return id }
        warn(reader.keyPath, "no ID; using its position \(index)")
        return index
    }

    /// A MIDI key or velocity bound, clamped to 0…127. A stored 128 (seen in a real preset as
    /// "up to the top") is clamped silently; other out-of-range values with a warning.
    mutating func midiRange(_ reader: PlistDictionaryReader, _ key: String, default fallback: Int) throws(PresetError)
        -> Int
    {
        guard let value = try reader.integer(key) else { return fallback }
        let clamped = min(max(value, 0), 127)
        if clamped != value && value != 128 { warn(reader.path(key), "\(value) is outside 0…127; using \(clamped)") }
        return clamped
    }

    private mutating func decodeFilter(_ layer: PlistDictionaryReader) throws(PresetError) -> Filter {
        guard let reader = try layer.dictionary("Filters") else { return Filter() }
        let type = try reader.integer("type")
        if case .unknown(let code) = FilterKind(code: type) {
            warn(reader.path("type"), "unknown filter type \(code); treated as low-pass")
        }
        var cutoffHz = try reader.double("cutoff") ?? 20000
        if cutoffHz <= 0 {
            warn(reader.path("cutoff"), "\(ReportFormat.number(cutoffHz)) Hz is not a frequency; using 20000")
            cutoffHz = 20000
        }
        return Filter(
            enabled: try reader.bool("enabled") ?? false,
            cutoffHz: bounded(cutoffHz, to: Bounds.cutoffHz, reader.path("cutoff"), fallback: 20000),
            resonanceDecibels: bounded(
                try reader.double("resonance") ?? 0, to: Bounds.resonanceDecibels, reader.path("resonance"), fallback: 0),
            type: type)
    }

    private mutating func decodeEnvelopes(_ layer: PlistDictionaryReader) throws(PresetError) -> [Envelope] {
        guard let readers = try layer.dictionaries(inArray: "Envelopes") else { return [Envelope(id: 0)] }
        var envelopes: [Envelope] = []
        for (index, reader) in readers.enumerated() {
            var envelope = Envelope(
                id: try identifier(reader, index: index), enabled: try reader.bool("enabled") ?? true)
            // 0 is the amp envelope, 1 the filter envelope (both played); others have no known use.
            if envelope.id > 1 {
                warn(reader.keyPath, "envelope ID \(envelope.id) is neither the amp (0) nor the filter (1) envelope; not applied")
            }
            for stage in try reader.dictionaries(inArray: "Stages") ?? [] { try decodeStage(stage, into: &envelope) }
            envelopes.append(envelope)
        }
        return envelopes
    }

    private mutating func decodeStage(_ stage: PlistDictionaryReader, into envelope: inout Envelope) throws(PresetError) {
        guard let number = try stage.integer("stage") else {
            warn(stage.keyPath, "no stage number; ignored")
            return
        }
        if number == 4 {
            envelope.sustainLevel = bounded(try stage.double("level") ?? 1, to: 0...1, stage.path("level"), fallback: 1)
            return
        }
        let seconds = bounded(try stage.double("time") ?? 0, to: Bounds.stageSeconds, stage.path("time"), fallback: 0)
        switch number {
        case 0: envelope.delaySeconds = seconds
        case 1:
            envelope.attackSeconds = seconds
            envelope.attackCurve = try stage.integer("curve")
        case 2: envelope.holdSeconds = seconds
        case 3:
            envelope.decaySeconds = seconds
            envelope.decayCurve = try stage.integer("curve")
        case 5:
            envelope.releaseSeconds = seconds
            envelope.releaseCurve = try stage.integer("curve")
        case 6: envelope.fastReleaseSeconds = seconds
        default: warn(stage.keyPath, "unknown stage \(number); ignored")
        }
    }

    private mutating func decodeLFOs(_ layer: PlistDictionaryReader) throws(PresetError) -> [LFO] {
        guard let readers = try layer.dictionaries(inArray: "LFOs") else { return [LFO(id: 0)] }
        var lfos: [LFO] = []
        for (index, reader) in readers.enumerated() {
            let waveform = LFOWaveform(rawValue: try reader.integer("waveform") ?? 0)
            if case .unknown(let code) = waveform {
                warn(reader.path("waveform"), "unknown LFO waveform \(code); a triangle is played")
            }
            var rateHz = try reader.double("rate") ?? 3
            if rateHz < 0 {
                warn(reader.path("rate"), "negative rate \(ReportFormat.number(rateHz)) Hz; using 3")
                rateHz = 3
            }
            lfos.append(
                LFO(
                    id: try identifier(reader, index: index), enabled: try reader.bool("enabled") ?? true,
                    rateHz: bounded(rateHz, to: Bounds.lfoRateHz, reader.path("rate"), fallback: 3),
                    delaySeconds: bounded(
                        try reader.double("delay") ?? 0, to: Bounds.stageSeconds, reader.path("delay"), fallback: 0),
                    waveform: waveform))
        }
        return lfos
    }
}
