/// What `audiograph soundfont list` and `preset check` print about a font: its presets as
/// `bank:program name` with zone, region and sample counts, the drum kits, what it could not
/// honour, the loader's warnings, and whether it plays. Control thread.
public struct SoundFontReport: Sendable {
    /// The printable lines.
    public var lines: [String]
    /// Presets with at least one region whose sample plays (and decodes, when verified).
    public var playablePresets: Int
    public var presetCount: Int

    /// "playable" is said only of what plays: a preset plays if one of its regions has a playable
    /// sample; with `verifySamples` every used sample is also read (SF3 streams decoded), and a
    /// sample that fails counts as not playable.
    public init(_ font: SoundFontFile, verifySamples: Bool, listPresets: Bool = true) {
        var lines: [String] = []
        let info = font.info
        let playableSamples = font.samples.filter(\.isPlayable).count
        let kind = info.isSF3 ? "SF3 (Ogg Vorbis samples)" : "SoundFont \(info.versionText)"
        lines.append("\(kind) \"\(info.name)\"" + (info.soundEngine.isEmpty ? "" : ", engine \(info.soundEngine)"))
        let bits = font.has24BitSamples ? "24-bit" : "16-bit"
        lines.append(
            "\(Self.count(font.presets.count, "preset")), \(Self.count(font.instruments.count, "instrument")), "
                + "\(Self.count(font.samples.count, "sample")) (\(playableSamples) playable), "
                + "\(Self.megabytes(font.sampleBytes.count)) of \(info.isSF3 ? "compressed" : bits) sample data, read on need")

        var failedSamples: [Int: String] = [:]
        var regionsByPreset: [[SoundFontRegion]] = []
        for index in font.presets.indices { regionsByPreset.append(font.regions(ofPreset: index)) }
        if verifySamples {
            let used = Set(regionsByPreset.joined().map(\.sample))
            for sample in used.sorted() {
                do {
                    let frames = try font.sampleFrames(sample)
                    if frames.contains(where: { !$0.isFinite }) { failedSamples[sample] = "non-finite sample value" }
                } catch {
                    failedSamples[sample] = error.reason
                }
            }
        }
        var playable = 0
        if listPresets { lines.append("presets (bank:program name — zones, regions, samples):") }
        let order = font.presets.indices.sorted { (font.presets[$0].bank, font.presets[$0].program, $0) < (font.presets[$1].bank, font.presets[$1].program, $1) }
        for index in order {
            let preset = font.presets[index]
            let regions = regionsByPreset[index].filter { failedSamples[$0.sample] == nil }
            let samples = Set(regions.map(\.sample)).count
            if !regions.isEmpty { playable += 1 }
            guard listPresets else { continue }
            let id = "\(Self.pad(preset.bank)):\(Self.pad(preset.program))"
            let silent = regions.isEmpty ? "  (silent: no region with a playable sample)" : ""
            let counts = [Self.count(preset.zones.count, "zone"), Self.count(regions.count, "region"), Self.count(samples, "sample")]
            lines.append("  \(id) \(preset.name) — \(counts.joined(separator: ", "))\(silent)")
        }
        let kits = font.presets.filter { $0.bank == 128 }.map(\.program).sorted()
        if !kits.isEmpty { lines.append("drum kits (bank 128): " + kits.map(String.init).joined(separator: " ")) }
        if !failedSamples.isEmpty {
            lines.append("samples that do not decode:")
            lines += failedSamples.sorted { $0.key < $1.key }.map { "  - \($0.key) '\(font.samples[$0.key].name)': \($0.value)" }
        }
        if !font.unsupported.isEmpty {
            lines.append("not honoured (FluidSynth 2.3 neither):")
            lines += font.unsupported.map { "  - " + $0 }
        }
        if !font.warnings.isEmpty {
            lines.append("warnings:")
            lines += font.warnings.map { "  - " + $0 }
        }
        self.lines = lines
        playablePresets = playable
        presetCount = font.presets.count
    }

    /// The closing verdict: "yes" only when every preset plays.
    public var verdict: String {
        if presetCount > 0 && playablePresets == presetCount { return "playable: yes (all \(presetCount) presets)" }
        if playablePresets == 0 { return "playable: NO — no preset has a playable sample" }
        return "playable: partly — \(playablePresets) of \(presetCount) presets play"
    }

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
    static func pad(_ n: Int) -> String { n < 10 ? "00\(n)" : n < 100 ? "0\(n)" : "\(n)" }
    static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}
