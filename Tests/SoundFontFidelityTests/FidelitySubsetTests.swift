import Foundation
import SoundFont
import SoundFontFidelity
import Testing

/// A representative subset of the fidelity report (.build/release/soundfont-fidelity notes): presets of
/// TimGM6mb (SF2) and FluidR3Mono_GM (SF3) of every kind — piano, strings, winds, plucked, bass,
/// synth, the standard drum kit key by key — each note rendered by FluidSynth 2.3 and by
/// `audiograph render --soundfont`, compared in FluidSynth's accurately interpolated band, from
/// each render's own onset, ours through FluidSynth's interpolation response.
/// Fails when we play a preset differently: a level off by more than 1 dB, a pitch off by more
/// than 1 cent, envelope times off by more than 10 % (3 ms) on more notes than the ill-conditioned
/// threshold crossings of drums and ensembles explain (docs/SOUNDFONTS.md: 150 of 151 and 702 of
/// 731 notes pass all five).
@Suite(.serialized) struct FidelitySubsetTests {
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("audiograph").path
    static let presets: Set<[Int]> = [[0, 0], [0, 24], [0, 33], [0, 40], [0, 56], [0, 73], [0, 80], [0, 11], [128, 0]]

    func report(font: String) throws -> FidelityReport {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fidelity-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let plan = FidelityNotePlan(font: try SoundFontFile.load(path: font), presets: Self.presets)
        let midi = "\(directory)/notes.mid"
        try MIDIFileWriterBridge.write(plan, to: midi)
        let renders = FidelityRenders(audiograph: Self.binary, directory: directory)
        var report = FidelityReport()
        report.add(plan: plan, reference: try renders.fluidSynth(font: font, midi: midi, name: "n", oversampled: false), ours: try renders.ours(font: font, midi: midi, name: "n"))
        return report
    }

    func check(_ report: FidelityReport, minimumNotes: Int) {
        let n = report.comparisons.count
        #expect(n >= minimumNotes)
        let levels = report.comparisons.filter(\.levelPasses).count
        let pitches = report.comparisons.filter(\.pitchPasses).count
        let times = report.comparisons.filter { $0.attackPasses && $0.decayPasses && $0.releasePasses }.count
        #expect(Double(levels) >= 0.99 * Double(n), "level within 1 dB: \(levels) of \(n)")
        #expect(Double(pitches) >= 0.99 * Double(n), "pitch within 1 cent: \(pitches) of \(n)")
        #expect(Double(times) >= 0.9 * Double(n), "attack, decay and release within 10 %: \(times) of \(n)")
        let medianLevel = report.comparisons.map { abs($0.levelDecibels) }.sorted()[n / 2]
        #expect(medianLevel < 0.02, "median level difference \(medianLevel) dB")
    }

    @Test func timGM6mbSF2() throws {
        check(try report(font: "/usr/share/sounds/sf2/TimGM6mb.sf2"), minimumNotes: 100)
    }

    @Test func fluidR3MonoSF3() throws {
        check(try report(font: "/usr/share/sounds/sf3/FluidR3Mono_GM.sf3"), minimumNotes: 100)
    }
}
