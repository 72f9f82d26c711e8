/// Writes small SoundFont files for the tests: every table from plain values, with switches to
/// leave out the records and padding real fonts sometimes lack. Not a general SF2 writer: it
/// writes exactly what it is given, invalid values included, so the loader's checks can be tested.
struct SoundFontWriter {
    struct Modulator {
        var source: UInt16
        var destination: UInt16
        var amount: Int16
        var amountSource: UInt16 = 0
        var transform: UInt16 = 0
    }

    struct Zone {
        /// (generator id, amount) in file order; a range's amount is low | high << 8.
        var generators: [(UInt16, Int16)] = []
        var modulators: [Modulator] = []
    }

    struct Header {
        var name: String
        var bank: UInt16 = 0
        var program: UInt16 = 0
        var zones: [Zone]
    }

    struct Sample {
        var name: String
        var start: UInt32
        var end: UInt32
        var loopStart: UInt32
        var loopEnd: UInt32
        var rate: UInt32 = 44_100
        var pitch: UInt8 = 60
        var correction: Int8 = 0
        var link: UInt16 = 0
        var type: UInt16 = 1
    }

    var version: (UInt16, UInt16) = (2, 4)
    var name = "Test Font"
    var presets: [Header] = []
    var instruments: [Header] = []
    var samples: [Sample] = []
    /// The smpl chunk's bytes (16-bit little-endian points, or Vorbis streams for an SF3).
    var sampleData: [UInt8] = []
    var sm24: [UInt8]?
    /// Extra INFO sub-chunks (unknown ids are allowed).
    var extraInfo: [(String, [UInt8])] = []
    /// Table ids ("pgen", "phdr", …) written without their terminal record.
    var withoutTerminal: Set<String> = []
    /// The RIFF size field, when it should lie.
    var riffSizeOverride: UInt32?

    /// 16-bit points as smpl bytes.
    static func pcm(_ points: [Int16]) -> [UInt8] { points.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] } }

    /// A range generator's amount.
    static func range(_ low: UInt8, _ high: UInt8) -> Int16 { Int16(bitPattern: UInt16(low) | UInt16(high) << 8) }

    func bytes() -> [UInt8] {
        var info = chunk("ifil", le16(version.0) + le16(version.1)) + chunk("isng", zstr("EMU8000")) + chunk("INAM", zstr(name))
        for (id, data) in extraInfo { info += chunk(id, data) }
        var sdta = chunk("smpl", sampleData)
        if let sm24 { sdta += chunk("sm24", sm24) }
        let body = list("INFO", info) + list("sdta", sdta) + list("pdta", hydra())
        let size = riffSizeOverride ?? UInt32(4 + body.count)
        return Array("RIFF".utf8) + le32(size) + Array("sfbk".utf8) + body
    }

    private func hydra() -> [UInt8] {
        let (phdr, pbag, pmod, pgen) = tables(presets, headerSize: 38, terminalName: "EOP", ids: ("phdr", "pbag", "pmod", "pgen"))
        let (inst, ibag, imod, igen) = tables(instruments, headerSize: 22, terminalName: "EOI", ids: ("inst", "ibag", "imod", "igen"))
        var shdr: [UInt8] = []
        for s in samples {
            shdr += name20(s.name) + le32(s.start) + le32(s.end) + le32(s.loopStart) + le32(s.loopEnd) + le32(s.rate)
            shdr += [s.pitch, UInt8(bitPattern: s.correction)] + le16(s.link) + le16(s.type)
        }
        if !withoutTerminal.contains("shdr") { shdr += name20("EOS") + [UInt8](repeating: 0, count: 26) }
        return chunk("phdr", phdr) + chunk("pbag", pbag) + chunk("pmod", pmod) + chunk("pgen", pgen) + chunk("inst", inst)
            + chunk("ibag", ibag) + chunk("imod", imod) + chunk("igen", igen) + chunk("shdr", shdr)
    }

    private func tables(_ headers: [Header], headerSize: Int, terminalName: String, ids: (String, String, String, String)) -> (
        [UInt8], [UInt8], [UInt8], [UInt8]
    ) {
        var h: [UInt8] = [], bag: [UInt8] = [], mod: [UInt8] = [], gen: [UInt8] = []
        var bagCount = 0, genCount = 0, modCount = 0
        func header(_ name: String, program: UInt16, bank: UInt16) {
            h += name20(name)
            if headerSize == 38 { h += le16(program) + le16(bank) + le16(UInt16(bagCount)) + [UInt8](repeating: 0, count: 12) } else { h += le16(UInt16(bagCount)) }
        }
        for hd in headers {
            header(hd.name, program: hd.program, bank: hd.bank)
            for zone in hd.zones {
                bag += le16(UInt16(genCount)) + le16(UInt16(modCount))
                bagCount += 1
                for (id, amount) in zone.generators { gen += le16(id) + le16(UInt16(bitPattern: amount)) }
                genCount += zone.generators.count
                for m in zone.modulators {
                    mod += le16(m.source) + le16(m.destination) + le16(UInt16(bitPattern: m.amount)) + le16(m.amountSource) + le16(m.transform)
                }
                modCount += zone.modulators.count
            }
        }
        if !withoutTerminal.contains(ids.0) { header(terminalName, program: 0, bank: 0) }
        bag += le16(UInt16(genCount)) + le16(UInt16(modCount))
        if !withoutTerminal.contains(ids.2) { mod += [UInt8](repeating: 0, count: 10) }
        if !withoutTerminal.contains(ids.3) { gen += [UInt8](repeating: 0, count: 4) }
        return (h, bag, mod, gen)
    }

    private func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    private func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
    private func name20(_ s: String) -> [UInt8] { Array((Array(s.utf8.prefix(19)) + [UInt8](repeating: 0, count: 20)).prefix(20)) }
    private func zstr(_ s: String) -> [UInt8] {
        var b = Array(s.utf8) + [0]
        if b.count % 2 == 1 { b.append(0) }
        return b
    }
    private func chunk(_ id: String, _ data: [UInt8]) -> [UInt8] {
        Array(id.utf8) + le32(UInt32(data.count)) + data + (data.count % 2 == 1 ? [0] : [])
    }
    private func list(_ type: String, _ data: [UInt8]) -> [UInt8] { chunk("LIST", Array(type.utf8) + data) }
}
