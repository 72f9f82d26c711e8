/// Reads the zones of one preset or instrument from its bags, with FluidSynth 2.3's loading rules
/// (sffile `load_pgen`/`load_igen`, defsfont `fluid_zone_check_mod`), which follow spec §7.5/§7.9:
///
/// - keyRange counts only as the first generator, velRange only first or right after keyRange;
///   generators after the terminal one (instrument / sampleID) and ids invalid at the level are
///   dropped; a later duplicate replaces the earlier one.
/// - The first zone without the terminal generator is the global zone; a later one is dropped.
/// - A zone naming an instrument or sample that does not exist is dropped (FluidSynth refuses the
///   whole font).
/// - Modulators with an invalid source, "no controller" as first source, a destination that is
///   not a generator, or a link (spec §9.5.4, not implemented) are dropped; of two identical ones
///   the earlier is dropped; a non-linear transform or an undefined curve leaves the amount 0;
///   at most 64 per zone.
///
/// Problems are collected per preset/instrument and reported as one line by `takeIssues()`.
struct ZoneReader {
    let reader: ChunkReader
    var unsupported = UnsupportedFeatures()
    private var issues: [String: Int] = [:]

    enum Level {
        case preset, instrument
        var terminal: SoundFontGenerator { self == .preset ? .instrument : .sampleID }
        var targetName: String { self == .preset ? "instrument" : "sample" }
    }

    /// FluidSynth's per-zone and per-voice modulator limit.
    static let maxModulatorsPerZone = 64

    init(reader: ChunkReader) { self.reader = reader }

    /// The global zone (empty if none) and the other zones of the header owning `bagRange`.
    mutating func read(bags bagRange: Range<Int>, in bags: Bags, level: Level, targetCount: Int) -> (SoundFontZone, [SoundFontZone]) {
        var global = SoundFontZone()
        var zones: [SoundFontZone] = []
        zones.reserveCapacity(bagRange.count)
        for bag in bagRange {
            let generators = readGenerators(bags.generators(ofBag: bag), table: bags.gens, level: level)
            let modulators = readModulators(bags.modulators(ofBag: bag), table: bags.mods)
            let zone = SoundFontZone(generators: generators, modulators: modulators)
            guard let target = generators[level.terminal].map({ Int(UInt16(bitPattern: $0)) }) else {
                if bag == bagRange.lowerBound {
                    global = zone
                } else {
                    note("a zone without \(level.terminal.specName) after the first was dropped")
                }
                continue
            }
            guard target < targetCount else {
                note("a zone naming \(level.targetName) \(target) (there are \(targetCount)) was dropped")
                continue
            }
            zones.append(zone)
        }
        return (global, zones)
    }

    /// One line listing what was dropped or changed since the last call, or nil.
    mutating func takeIssues() -> String? {
        guard !issues.isEmpty else { return nil }
        defer { issues = [:] }
        return issues.sorted { $0.key < $1.key }.map { $0.value > 1 ? "\($0.key) (×\($0.value))" : $0.key }.joined(separator: "; ")
    }

    private mutating func note(_ issue: String) { issues[issue, default: 0] += 1 }

    private mutating func readGenerators(_ records: Range<Int>, table: RecordTable, level: Level) -> SoundFontGenerators {
        var generators = SoundFontGenerators()
        var stage = 0  // 0 nothing yet, 1 after keyRange, 2 after anything else
        for record in records {
            let offset = table.offset(record)
            let id = Int(reader.uint16(offset))
            let amount = reader.int16(offset + 2)
            if id == level.terminal.rawValue {
                generators[level.terminal] = amount
                if record + 1 < records.upperBound { note("generators after \(level.terminal.specName) were discarded") }
                return generators
            }
            guard let generator = SoundFontGenerator(rawValue: id), generator != .instrument, generator != .sampleID else {
                note("generator id \(id) is not valid in \(level == .preset ? "a preset" : "an instrument") and was discarded")
                continue
            }
            switch generator {
            case .keyRange where stage == 0:
                stage = 1
            case .velocityRange where stage <= 1:
                stage = 2
            case .keyRange, .velocityRange:
                note("\(generator.specName) not at the start of its zone was discarded")
                continue
            default:
                stage = 2
                if level == .preset && generator.isInstrumentOnly {
                    note("\(generator.specName) (instrument level only) was discarded")
                    continue
                }
            }
            generators[generator] = amount
        }
        return generators
    }

    private mutating func readModulators(_ records: Range<Int>, table: RecordTable) -> [SoundFontModulator] {
        var modulators: [SoundFontModulator] = []
        for record in records {
            let offset = table.offset(record)
            let source = SoundFontModulatorSource(rawValue: reader.uint16(offset))
            let destinationID = reader.uint16(offset + 2)
            var amount = Int(reader.int16(offset + 4))
            var amountSource = SoundFontModulatorSource(rawValue: reader.uint16(offset + 6))
            // "No controller" reads as 1 whatever its polarity; FluidSynth clears the flag, which
            // makes such a modulator identical to one written without it.
            if amountSource.isNone { amountSource.rawValue &= ~0x200 }
            let transform = reader.uint16(offset + 8)
            if destinationID & 0x8000 != 0 || source.general == .link || amountSource.general == .link {
                unsupported.add("linked modulators (spec 2.04 §9.5.4)")
                note("a linked modulator was dropped")
                continue
            }
            guard let destination = SoundFontGenerator(rawValue: Int(destinationID)) else {
                note("a modulator to generator id \(destinationID) was dropped")
                continue
            }
            if source.isNone {
                note("a modulator with no primary source was dropped")
                continue
            }
            guard Self.isValid(source), Self.isValid(amountSource) else {
                note("a modulator with an invalid source was dropped")
                continue
            }
            if source.curve == nil || amountSource.curve == nil {
                unsupported.add("modulator source types other than linear, concave, convex and switch (made inert)")
                amount = 0
            }
            if transform != 0 {
                unsupported.add("modulator transforms other than linear (absolute value; made inert, as in FluidSynth 2.3)")
                amount = 0
            }
            modulators.append(SoundFontModulator(source: source, destination: destination, amount: amount, amountSource: amountSource, transform: transform))
        }
        // Of identical modulators the last one counts (spec §7.4); FluidSynth removes the earlier ones.
        var kept: [SoundFontModulator] = []
        for (i, modulator) in modulators.enumerated() {
            if modulators[(i + 1)...].contains(where: { $0.isIdentical(to: modulator) }) {
                note("an identical modulator was replaced by a later one")
            } else {
                kept.append(modulator)
            }
        }
        if kept.count > Self.maxModulatorsPerZone {
            note("modulators beyond \(Self.maxModulatorsPerZone) in a zone were dropped")
            kept.removeLast(kept.count - Self.maxModulatorsPerZone)
        }
        return kept
    }

    /// Spec §8.2.1 sources, as FluidSynth 2.3 checks them (mod `fluid_mod_check_sources`): the
    /// general sources the spec defines, and any CC but bank select, data entry, (N)RPN and the
    /// channel mode messages (CC LSBs 33–63 are accepted).
    static func isValid(_ source: SoundFontModulatorSource) -> Bool {
        guard source.isController else { return source.general != nil && source.general != .link }
        let cc = source.index
        return cc != 0 && cc != 6 && cc != 32 && cc != 38 && !(98...101).contains(cc) && cc < 120
    }
}

/// Features present in a font that are not honoured, counted by kind.
struct UnsupportedFeatures {
    private(set) var counts: [String: Int] = [:]

    mutating func add(_ feature: String, count: Int = 1) { counts[feature, default: 0] += count }
    mutating func merge(_ other: UnsupportedFeatures) { for (feature, count) in other.counts { add(feature, count: count) } }

    /// One line per feature with its count, sorted.
    var lines: [String] { counts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" } }
}
