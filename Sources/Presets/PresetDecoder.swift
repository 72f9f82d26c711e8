/// Turns a parsed property list into an `AUPreset`, collecting warnings for everything it
/// tolerates. Structural errors (wrong container types, wrongly typed values) throw.
struct PresetDecoder {
    static let samplerType = 0x6175_6D75  // 'aumu'
    static let samplerSubtype = 0x7361_6D70  // 'samp'
    static let appleManufacturer = 0x6170_706C  // 'appl'
    static let fileReferencePrefix = "Sample:"

    let file: String
    var warnings: [String] = []

    init(file: String) { self.file = file }

    /// More voices than any sampler preset asks for; a larger stored count is an error in the file
    /// that would make the sampler preallocate without bound.
    static let maximumVoiceCount = 256

    mutating func warn(_ keyPath: String, _ message: String) { warnings.append("\(keyPath): \(message)") }

    /// Limits on the shape of a preset: real ones have a handful of layers, at most a few hundred
    /// zones and a dozen connections each. More is refused so a hostile file cannot make the
    /// decoder, the check report or the sampler allocate without bound.
    static let maximumLayers = 256
    static let maximumZonesPerLayer = 4096
    static let maximumConnectionsPerLayer = 256

    /// The allowed range of every number a preset stores, checked once here so that whatever
    /// decodes is playable (the sampler never sees a non-finite or absurd value).
    enum Bounds {
        static let gainDecibels = -96.0...24.0
        static let fineTuneCents = -1200.0...1200.0
        static let cutoffHz = 10.0...24_000.0
        static let resonanceDecibels = -20.0...40.0
        static let stageSeconds = 0.0...100.0
        static let lfoRateHz = 0.0...100.0
        /// Connection amounts are cents, dB or 0…1; 12800 (key → pitch) is the largest real one.
        static let connectionAmount = -100_000.0...100_000.0
    }

    /// A number from the file or the `data` blob limited to `range`: outside → the nearest bound,
    /// NaN → `fallback`, each with a warning naming the key and the allowed range.
    mutating func bounded(_ value: Double, to range: ClosedRange<Double>, _ keyPath: String, fallback: Double) -> Double {
        if range.contains(value) { return value }
        let result = value.isNaN ? fallback : min(max(value, range.lowerBound), range.upperBound)
        warn(
            keyPath,
            "\(ReportFormat.number(value)) is outside the allowed \(ReportFormat.number(range.lowerBound))…"
                + "\(ReportFormat.number(range.upperBound)); using \(ReportFormat.number(result))")
        return result
    }

    /// `value` limited to `range`, with a warning naming `keyPath` when it was outside. Values that
    /// feed pitch or allocation arithmetic go through here so absurd input cannot overflow later.
    mutating func clamped<Value: Comparable>(_ value: Value, to range: ClosedRange<Value>, _ keyPath: String) -> Value {
        let result = min(max(value, range.lowerBound), range.upperBound)
        if result != value {
            warn(keyPath, "\(value) is outside \(range.lowerBound)…\(range.upperBound); using \(result)")
        }
        return result
    }

    mutating func decode(_ root: PropertyList) throws(PresetError) -> AUPreset {
        let top = try PlistDictionaryReader(root, keyPath: "", file: file)
        let type = try top.integer("type")
        let subtype = try top.integer("subtype")
        guard let instrument = try top.dictionary("Instrument") else {
            let identity = [type.map { "type \(Self.fourCC($0))" }, subtype.map { "subtype \(Self.fourCC($0))" }]
                .compactMap { $0 }.joined(separator: ", ")
            let which = identity.isEmpty ? "" : " (\(identity))"
            throw .notASamplerPreset(path: file, reason: "no Instrument dictionary\(which)")
        }
        if let type, type != Self.samplerType {
            warn("type", "\(Self.fourCC(type)) is not an instrument ('aumu'); loading the Instrument anyway")
        }
        if let subtype, subtype != Self.samplerSubtype {
            warn("subtype", "\(Self.fourCC(subtype)) is not the AUSampler ('samp'); loading anyway")
        }
        let instrumentName = try instrument.string("name")
        let name = try top.string("name") ?? instrumentName ?? Self.fileStem(file)
        let globals = try decodeGlobals(top)
        var voiceCount = try top.integer("voice count") ?? 64
        if voiceCount < 1 {
            warn("voice count", "\(voiceCount) is not a polyphony; using 64")
            voiceCount = 64
        }
        voiceCount = clamped(voiceCount, to: 1...Self.maximumVoiceCount, "voice count")
        let fileReferences = try decodeFileReferences(top)
        var layers: [Layer] = []
        if let layerReaders = try instrument.dictionaries(inArray: "Layers") {
            try checkCount(layerReaders.count, max: Self.maximumLayers, "layers", at: instrument.path("Layers"))
            for (index, reader) in layerReaders.enumerated() { layers.append(try decodeLayer(reader, index: index)) }
        }
        if layers.isEmpty { warn("Instrument.Layers", "no layers: the preset makes no sound") }
        checkReferences(layers: layers, fileReferences: fileReferences)
        return AUPreset(
            path: file, name: name, instrumentName: instrumentName, globals: globals, voiceCount: voiceCount,
            layers: layers, fileReferences: fileReferences, warnings: warnings)
    }

    /// Top-level `gain`/`pan`/`coarse tune`/`fine tune` win; the `data` blob fills in the rest.
    private mutating func decodeGlobals(_ top: PlistDictionaryReader) throws(PresetError) -> GlobalParameters {
        var globals = GlobalParameters()
        if let blob = top.value("data") {
            guard let bytes = blob.dataValue else {
                throw .invalidValue(path: file, keyPath: "data", expected: "data", found: blob.typeName)
            }
            if let parameters = GlobalParameterBlob.decode(bytes) {
                globals = parameters
            } else {
                warn("data", "\(bytes.count)-byte parameter blob has an unexpected layout; ignored")
            }
        }
        // Ranges of AUSampler's parameters 900–903 (QA1632).
        globals.gainDecibels = bounded(try top.double("gain") ?? globals.gainDecibels, to: -90...12, "gain", fallback: 0)
        globals.pan = bounded(try top.double("pan") ?? globals.pan, to: -1...1, "pan", fallback: 0)
        globals.coarseTuneSemitones = bounded(
            try top.double("coarse tune") ?? globals.coarseTuneSemitones, to: -24...24, "coarse tune", fallback: 0)
        globals.fineTuneCents = bounded(
            try top.double("fine tune") ?? globals.fineTuneCents, to: -99...99, "fine tune", fallback: 0)
        return globals
    }

    private mutating func decodeFileReferences(_ top: PlistDictionaryReader) throws(PresetError) -> [Int: String] {
        guard let references = try top.dictionary("file-references") else { return [:] }
        var result: [Int: String] = [:]
        for entry in references.entries {
            let keyPath = references.path(entry.key)
            guard entry.key.hasPrefix(Self.fileReferencePrefix),
                let number = Int(entry.key.dropFirst(Self.fileReferencePrefix.count))
            else {
                warn(keyPath, "ignored: not a \"Sample:<number>\" key")
                continue
            }
            guard let reference = entry.value.stringValue else {
                warn(keyPath, "ignored: expected a string path, found \(entry.value.typeName)")
                continue
            }
            if result[number] != nil { warn(keyPath, "duplicate reference; the first one is used") }
            if result[number] == nil { result[number] = reference }
        }
        return result
    }

    /// Throws when an array holds more elements than a preset may have.
    func checkCount(_ count: Int, max: Int, _ what: String, at keyPath: String) throws(PresetError) {
        guard count <= max else {
            throw .invalidValue(path: file, keyPath: keyPath, expected: "at most \(max) \(what)", found: "\(count)")
        }
    }

    /// Zones whose sample has no reference cannot sound; unused references are harmless.
    private mutating func checkReferences(layers: [Layer], fileReferences: [Int: String]) {
        for layer in layers {
            for zone in layer.zones where zone.enabled && !zone.usesBuiltInSine && fileReferences[zone.waveform] == nil {
                let detail =
                    zone.waveform < 0
                    ? "unknown built-in waveform" : "no file-references entry \"Sample:\(zone.waveform)\""
                warn("layer \(layer.id) zone \(zone.id)", "waveform \(zone.waveform): \(detail); the zone is silent")
            }
        }
    }

    /// `'aumu'`-style text for a four-character code, or the decimal value if not printable.
    static func fourCC(_ code: Int) -> String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: code >> (24 - 8 * $0)) }
        guard code >= 0, code <= 0xFFFF_FFFF, bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return "\(code)" }
        return "'" + String(decoding: bytes, as: UTF8.self) + "'"
    }

    static func fileStem(_ path: String) -> String {
        let base = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return base }
        return String(base[..<dot])
    }
}

/// The 44-byte `data` blob: AU's `SaveState` parameter dump, big-endian
/// `{scope, element, count, count × {paramID, Float32}}` sections. The sampler's globals are
/// scope 0 (global), element 0, params 900 gain, 901 coarse tune, 902 fine tune, 903 pan.
enum GlobalParameterBlob {
    static func decode(_ bytes: [UInt8]) -> GlobalParameters? {
        var globals = GlobalParameters()
        var offset = 0
        func word() -> UInt32? {
            guard offset + 4 <= bytes.count else { return nil }
            defer { offset += 4 }
            return bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        while offset < bytes.count {
            guard let scope = word(), let element = word(), let count = word(), count <= bytes.count / 8 else {
                return nil
            }
            for _ in 0..<count {
                guard let parameterID = word(), let bits = word() else { return nil }
                guard scope == 0, element == 0 else { continue }
                let value = Double(Float(bitPattern: bits))
                switch parameterID {
                case 900: globals.gainDecibels = value
                case 901: globals.coarseTuneSemitones = value
                case 902: globals.fineTuneCents = value
                case 903: globals.pan = value
                default: break
                }
            }
        }
        return globals
    }
}
