extension AUPreset {
    /// The text of `audiograph preset check`: globals, each layer with its articulation, zones
    /// and keyboard map, each file reference with where it was found (or every place tried),
    /// and the warnings.
    ///
    /// Control thread only (resolves paths on the file system).
    /// - Parameters:
    ///   - resolver: finds the sample files.
    ///   - describeSample: extra lines for a found sample file (format, length, loop, base note),
    ///     supplied by the audio-file layer; none by default.
    public func checkReport(resolver: SamplePathResolver, describeSample: (String) -> [String] = { _ in [] }) -> String {
        var lines = ["Preset: \(name) (\(path))"]
        if let instrumentName { lines.append("Instrument: \(instrumentName)") }
        lines.append(
            "Globals: gain \(ReportFormat.number(globals.gainDecibels)) dB, pan \(ReportFormat.number(globals.pan)), "
                + "coarse tune \(ReportFormat.number(globals.coarseTuneSemitones)) st, "
                + "fine tune \(ReportFormat.number(globals.fineTuneCents)) ct, voice count \(voiceCount)")
        for (layer, coverage) in zip(layers, coverageMap()) {
            lines += ReportFormat.layerLines(layer, coverage: coverage)
        }
        lines += sampleLines(resolver: resolver, describeSample: describeSample)
        lines.append(warnings.isEmpty ? "Warnings: none" : "Warnings (\(warnings.count)):")
        lines += warnings.map { "  - " + $0 }
        return lines.joined(separator: "\n") + "\n"
    }

    private func sampleLines(resolver: SamplePathResolver, describeSample: (String) -> [String]) -> [String] {
        let used = Set(usedWaveforms)
        var lines = ["Samples (\(fileReferences.count) referenced, \(used.count) used by enabled zones):"]
        for waveform in fileReferences.keys.sorted() {
            guard let reference = fileReferences[waveform] else { continue }
            let isUsed = used.contains(waveform)
            lines.append("  Sample:\(waveform)\(isUsed ? "" : " (unused, not loaded)")  \(reference)")
            switch resolver.resolve(reference) {
            case .found(let path, let how):
                lines.append("    found: \(path)")
                lines.append("      via \(how)")
                lines += describeSample(path).map { "      " + $0 }
            case .notFound(let tried):
                lines.append(isUsed ? "    MISSING; tried:" : "    not found (harmless: unused); tried:")
                lines += tried.map { "      " + $0 }
            }
        }
        return lines
    }
}

/// Formatting helpers for the check report.
enum ReportFormat {
    static let noteNames = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]

    /// MIDI key name with C4 = 60 (e.g. 61 → "C#4").
    static func noteName(_ key: Int) -> String {
        let octave = Int((Double(key) / 12).rounded(.down)) - 1
        return noteNames[((key % 12) + 12) % 12] + String(octave)
    }

    /// Up to 4 decimals, without a trailing ".0" (0.004999999888 → "0.005", 20000.0 → "20000").
    static func number(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return String(value) }
        let rounded = (value * 10000).rounded() / 10000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
        return String(rounded)
    }

    static func layerLines(_ layer: Layer, coverage: KeyboardCoverage) -> [String] {
        var lines = [
            "Layer \(layer.id): keys \(layer.minKey)-\(layer.maxKey), key offset \(layer.keyOffset), "
                + "gain \(number(layer.gainDecibels)) dB, trigger \(triggerName(layer.triggerMode)), "
                + "\(layer.zones.count) zones (\(layer.enabledZones.count) enabled)"
        ]
        for envelope in layer.envelopes {
            lines.append(
                "  envelope \(envelope.id)\(envelope.enabled ? "" : " (disabled)"): delay \(number(envelope.delaySeconds)) s, "
                    + "attack \(number(envelope.attackSeconds)) s, hold \(number(envelope.holdSeconds)) s, "
                    + "decay \(number(envelope.decaySeconds)) s, sustain \(number(envelope.sustainLevel)), "
                    + "release \(number(envelope.releaseSeconds)) s")
        }
        let filter = layer.filter
        lines.append(
            "  filter: \(filter.enabled ? "on" : "off"), cutoff \(number(filter.cutoffHz)) Hz, "
                + "resonance \(number(filter.resonanceDecibels)) dB")
        for lfo in layer.lfos {
            lines.append(
                "  LFO \(lfo.id)\(lfo.enabled ? "" : " (disabled)"): \(lfo.waveform), \(number(lfo.rateHz)) Hz, "
                    + "delay \(number(lfo.delaySeconds)) s")
        }
        let origin = layer.usesDefaultConnections ? "DLS defaults (none stored)" : "stored"
        lines.append("  connections: \(layer.connections.count), \(origin)")
        lines += layer.connections.map { "    " + connectionLine($0) }
        lines.append("  zones:")
        lines += layer.zones.map { "    " + zoneLine($0) }
        lines.append("  keyboard map (letter = the zone sounding, digit = zones stacked, . = silent):")
        lines += coverage.textRows(indent: "    ")
        return lines
    }

    static func triggerName(_ mode: TriggerMode) -> String {
        switch mode {
        case .normal: return "normal"
        case .oneShot: return "one-shot"
        case .unknown(let raw): return "unknown (\(raw))"
        }
    }

    static func connectionLine(_ connection: Connection) -> String {
        let range = connection.outputRange
        var text = "\(connection.id): \(connection.source)"
        if connection.control != .constant { text += " x \(connection.control)" }
        text += " -> \(connection.destination) \(number(range.atZero))...\(number(range.atOne))"
        text += " \(connection.transform)\(connection.inverse ? " inverse" : "")"
        if !connection.enabled { text += " (disabled)" }
        if let name = connection.name { text += " \"\(name)\"" }
        return text
    }

    static func zoneLine(_ zone: Zone) -> String {
        var text = "zone \(zone.id)\(zone.enabled ? "" : " DISABLED"): "
        text += "keys \(zone.minKey)-\(zone.maxKey) (\(noteName(zone.minKey))..\(noteName(zone.maxKey))), "
        text += "vel \(zone.minVelocity)-\(zone.maxVelocity), "
        text += "root \(zone.rootKey.map { "\($0) (\(noteName($0)))" } ?? "from file (else 60)"), "
        text += zone.usesBuiltInSine ? "built-in sine" : "Sample:\(zone.waveform)"
        if zone.loopEnabled {
            let start = zone.loopStart.map(String.init) ?? "file"
            let end = zone.loopEnd.map(String.init) ?? "file"
            text += ", loop \(start)..<\(end)"
        } else {
            text += ", no loop"
        }
        if zone.gainDecibels != 0 { text += ", gain \(number(zone.gainDecibels)) dB" }
        if zone.coarseTuneSemitones != 0 || zone.fineTuneCents != 0 {
            text += ", tune \(zone.coarseTuneSemitones) st \(number(zone.fineTuneCents)) ct"
        }
        if !zone.pitchTracking { text += ", no pitch tracking" }
        if let name = zone.name { text += " \"\(name)\"" }
        return text
    }
}
