/// Reads the nine pdta tables (spec §7, "the hydra") into presets, instruments and samples:
/// record sizes, header → bag → generator/modulator index chains (monotonic, inside their tables),
/// terminal records, and FluidSynth 2.3's tolerance where real fonts need it (see README.md).
struct HydraReader {
    let reader: ChunkReader
    let isSF3: Bool
    /// The smpl chunk's body, in file bytes.
    let samplePool: Range<Int>
    var warnings: [String] = []
    var unsupported = UnsupportedFeatures()

    static let chunkIDs = ["phdr", "pbag", "pmod", "pgen", "inst", "ibag", "imod", "igen", "shdr"]
    /// Presets, instruments and samples a font may have: indices into them are 16-bit.
    static let maxHeaders = 65_536

    struct Tables {
        var presets: [SoundFontPreset]
        var instruments: [SoundFontInstrument]
        var samples: [SoundFontSample]
    }

    mutating func read(_ chunks: [String: RIFFChunk]) throws(FormatIssue) -> Tables {
        func table(_ id: String, _ recordSize: Int) throws(FormatIssue) -> RecordTable {
            try RecordTable(chunk: chunks[id]!, recordSize: recordSize)
        }
        var sampleReader = SampleHeaderReader(reader: reader, isSF3: isSF3, pool: samplePool)
        let samples = try sampleReader.read(try table("shdr", 46))
        warnings += sampleReader.warnings
        unsupported.merge(sampleReader.unsupported)

        let instrumentHeaders = try headers(try table("inst", 22), bags: try table("ibag", 4), terminalName: "EOI")
        let instrumentBags = try bags(try table("ibag", 4), used: instrumentHeaders.bags, gens: try table("igen", 4), mods: try table("imod", 10))
        var zones = ZoneReader(reader: reader)
        var instruments: [SoundFontInstrument] = []
        instruments.reserveCapacity(instrumentHeaders.names.count)
        for (i, name) in instrumentHeaders.names.enumerated() {
            let (global, local) = zones.read(
                bags: instrumentHeaders.bagRange(i), in: instrumentBags, level: .instrument, targetCount: samples.count)
            instruments.append(SoundFontInstrument(name: name, global: global, zones: local))
            if let issue = zones.takeIssues() { warnings.append("instrument \(i) '\(name)': \(issue)") }
        }

        let presetHeaders = try headers(try table("phdr", 38), bags: try table("pbag", 4), terminalName: "EOP")
        let presetBags = try bags(try table("pbag", 4), used: presetHeaders.bags, gens: try table("pgen", 4), mods: try table("pmod", 10))
        var presets: [SoundFontPreset] = []
        presets.reserveCapacity(presetHeaders.names.count)
        for (i, name) in presetHeaders.names.enumerated() {
            let record = presetHeaders.records.offset(i)
            let program = Int(reader.uint16(record + 20)), bank = Int(reader.uint16(record + 22))
            let (global, local) = zones.read(bags: presetHeaders.bagRange(i), in: presetBags, level: .preset, targetCount: instruments.count)
            presets.append(SoundFontPreset(name: name, bank: bank, program: program, global: global, zones: local))
            if let issue = zones.takeIssues() { warnings.append("preset \(bank):\(program) '\(name)': \(issue)") }
        }
        if presets.isEmpty { warnings.append("pdta/phdr: the font has no presets; nothing can play") }
        unsupported.merge(zones.unsupported)
        return Tables(presets: presets, instruments: instruments, samples: samples)
    }

    /// Preset or instrument headers: names and the bag index each starts at, closed by the terminal
    /// record. A table whose last record owns bags before the bag table's terminal (and is not
    /// named EOP/EOI) has lost its terminal record: that last record is read as a real header,
    /// closed by the bag table's terminal, with a warning (FluidSynth would silently drop it).
    private mutating func headers(_ table: RecordTable, bags: RecordTable, terminalName: String) throws(FormatIssue) -> Headers {
        let nameLength = 20, bagField = table.recordSize == 38 ? 24 : 20
        guard table.count <= Self.maxHeaders + 1 else {
            throw table.tooMany(limit: Self.maxHeaders)
        }
        guard bags.count >= 1 else { throw bags.issue(at: 0, "no records (not even the terminal one)") }
        var starts = (0..<table.count).map { Int(reader.uint16(table.offset($0) + bagField)) }
        var names = (0..<table.count).map { reader.name(table.offset($0), length: nameLength) }
        let bagTerminal = bags.count - 1
        if let last = starts.last, last < bagTerminal, names.last != terminalName {
            warnings.append(
                "\(table.path): no terminal record; the last record '\(names.last!)' is read as \(table.recordSize == 38 ? "a preset" : "an instrument")")
            starts.append(bagTerminal)
        } else {
            names.removeLast(min(1, names.count))
        }
        if starts.isEmpty { starts = [0] }
        for i in starts.indices.dropFirst() where starts[i] < starts[i - 1] {
            throw table.issue(at: i, "bag index \(starts[i]) is below the previous record's \(starts[i - 1]) (indices must not decrease)")
        }
        guard starts.last! <= bagTerminal else {
            throw table.issue(at: starts.count - 1, "bag index \(starts.last!) is past the \(bags.count) records of \(bags.path)")
        }
        if starts[0] > 0 { warnings.append("\(table.path): \(starts[0]) bags before the first record's are not used") }
        if starts.last! < bagTerminal { warnings.append("\(bags.path): \(bagTerminal - starts.last!) records after the last zone are not used") }
        return Headers(names: names, bags: starts, records: table)
    }

    /// The generator and modulator index of each used bag (`used` = the header's bag indices,
    /// first to terminal), checked to be monotonic and inside pgen/pmod (or igen/imod). A terminal
    /// index equal to the record count means the table lacks its terminal record: tolerated with
    /// a warning (FluidSynth accepts it silently).
    private mutating func bags(_ bags: RecordTable, used: [Int], gens: RecordTable, mods: RecordTable) throws(FormatIssue) -> Bags {
        let first = used.first ?? 0, last = used.last ?? 0
        var genStarts = [Int](), modStarts = [Int]()
        genStarts.reserveCapacity(last - first + 1)
        modStarts.reserveCapacity(last - first + 1)
        for bag in first...last {
            let offset = bags.offset(bag)
            let gen = Int(reader.uint16(offset)), mod = Int(reader.uint16(offset + 2))
            if let previous = genStarts.last, gen < previous {
                throw bags.issue(at: bag, "generator index \(gen) is below the previous zone's \(previous) (indices must not decrease)")
            }
            if let previous = modStarts.last, mod < previous {
                throw bags.issue(at: bag, "modulator index \(mod) is below the previous zone's \(previous) (indices must not decrease)")
            }
            genStarts.append(gen)
            modStarts.append(mod)
        }
        try checkTerminal(index: genStarts.last!, of: gens, bags: bags, bag: last)
        try checkTerminal(index: modStarts.last!, of: mods, bags: bags, bag: last)
        return Bags(firstBag: first, genStarts: genStarts, modStarts: modStarts, gens: gens, mods: mods)
    }

    private mutating func checkTerminal(index: Int, of table: RecordTable, bags: RecordTable, bag: Int) throws(FormatIssue) {
        if index > table.count {
            throw bags.issue(at: bag, "index \(index) is past the \(table.count) records of \(table.path)")
        } else if index == table.count {
            warnings.append("\(table.path): no terminal record (tolerated)")
        } else if index < table.count - 1 {
            warnings.append("\(table.path): \(table.count - 1 - index) records after the last zone's are not used")
        }
    }
}

/// A pdta sub-chunk as fixed-size records (spec §7: phdr 38, bags 4, mods 10, gens 4, inst 22, shdr 46 bytes).
struct RecordTable {
    let chunk: RIFFChunk
    let recordSize: Int
    let count: Int

    init(chunk: RIFFChunk, recordSize: Int) throws(FormatIssue) {
        guard chunk.size % recordSize == 0 else {
            throw FormatIssue(
                chunk: chunk.path, byteOffset: chunk.headerOffset,
                reason: "\(chunk.size) bytes is not a whole number of \(recordSize)-byte records")
        }
        self.chunk = chunk
        self.recordSize = recordSize
        count = chunk.size / recordSize
    }

    var path: String { chunk.path }
    func tooMany(limit: Int) -> FormatIssue {
        FormatIssue(chunk: chunk.path, byteOffset: chunk.headerOffset, reason: "\(count) records, more than the \(limit) a SoundFont can index")
    }
    func offset(_ record: Int) -> Int { chunk.body.lowerBound + record * recordSize }
    func issue(at record: Int, _ reason: String) -> FormatIssue {
        FormatIssue(chunk: chunk.path, byteOffset: offset(record), reason: "record \(record): " + reason)
    }
}

/// Preset or instrument headers: header `i` owns bags `bags[i] ..< bags[i + 1]`.
struct Headers {
    var names: [String]
    var bags: [Int]
    var records: RecordTable
    func bagRange(_ header: Int) -> Range<Int> { bags[header]..<bags[header + 1] }
}

/// Bag `b` (from `firstBag`) owns generator records `genStarts[b] ..< genStarts[b + 1]`, modulators likewise.
struct Bags {
    var firstBag: Int
    var genStarts: [Int]
    var modStarts: [Int]
    var gens: RecordTable
    var mods: RecordTable
    func generators(ofBag bag: Int) -> Range<Int> { genStarts[bag - firstBag]..<genStarts[bag - firstBag + 1] }
    func modulators(ofBag bag: Int) -> Range<Int> { modStarts[bag - firstBag]..<modStarts[bag - firstBag + 1] }
}
