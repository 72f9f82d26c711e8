import SoundFont

/// Small fonts the tests build with `SoundFontWriter`.
enum Fixtures {
    typealias W = SoundFontWriter
    typealias G = SoundFontGenerator

    /// 100 frames of a ramp followed by 46 zero points, as the spec lays samples out.
    static let rampPoints: [Int16] = (0..<100).map { Int16($0 * 300 - 15_000) } + [Int16](repeating: 0, count: 46)

    static func sample(_ name: String = "Ramp", start: UInt32 = 0, end: UInt32 = 100, loop: (UInt32, UInt32) = (20, 80)) -> W.Sample {
        W.Sample(name: name, start: start, end: end, loopStart: loop.0, loopEnd: loop.1, rate: 44_100, pitch: 60)
    }

    /// One preset (0:0) → one instrument → one sample; `instrument`/`preset` add generators or
    /// modulators to the single zones.
    static func minimal(preset: W.Zone = W.Zone(), instrument: W.Zone = W.Zone()) -> W {
        var p = preset, i = instrument
        p.generators.append((UInt16(G.instrument.rawValue), 0))
        i.generators.append((UInt16(G.sampleID.rawValue), 0))
        var w = W()
        w.presets = [W.Header(name: "Piano", zones: [p])]
        w.instruments = [W.Header(name: "Piano Inst", zones: [i])]
        w.samples = [sample()]
        w.sampleData = W.pcm(rampPoints)
        return w
    }

    static func load(_ writer: W, path: String = "test.sf2") throws -> SoundFontFile {
        try SoundFontFile.parse(bytes: writer.bytes(), path: path)
    }

    static func gen(_ g: G, _ amount: Int16) -> (UInt16, Int16) { (UInt16(g.rawValue), amount) }
}
