import Engine
import Foundation
import Sampler
import SoundFont
import SoundFontLoading

/// SoundFont sounds in the program table: a whole font (`--soundfont`, or the instrument file's
/// `soundfont`), or one preset named `FILE.sf2#bank:program` in `programs`/`banks`.
extension ProgramTableLoader {
    /// A SoundFont reference in a program-table entry: the file and the preset (`#bank:program`).
    struct SoundFontReference {
        var path: String
        var bank: Int
        var program: Int

        /// `path#bank:program` for a path ending in .sf2 or .sf3 (case-insensitive); nil for anything else.
        init?(_ value: String, relativeTo base: String) {
            guard let hash = value.lastIndex(of: "#") else { return nil }
            let file = String(value[..<hash]), selector = value[value.index(after: hash)...]
            guard ["sf2", "sf3"].contains((file as NSString).pathExtension.lowercased()) else { return nil }
            let numbers = selector.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
            guard numbers.count == 2, let bank = numbers[0], let program = numbers[1] else { return nil }
            path = InstrumentLocator.resolve(file, relativeTo: base)
            self.bank = bank
            self.program = program
        }
    }

    static func isSoundFontPath(_ value: String) -> Bool {
        ["sf2", "sf3"].contains((value as NSString).pathExtension.lowercased())
    }

    /// Loads `selection` of the font at `path` (only what `loader.song` plays, for a render),
    /// with program indices from `firstProgram`; warnings go to the loader's sink.
    func loadSoundFont(_ path: String, selection: SoundFontSelection, firstProgram: Int, parts: [PartSetup], key: String)
        throws(InstrumentError) -> SoundFontBank
    {
        let gain = try soundFontGain()
        do {
            let bank = try SoundFontBankLoader.load(
                path: path, selection: selection, song: loader.song, parts: parts, firstProgram: firstProgram, levels: loader.levels,
                gain: gain, tuningHeadroomSemitones: loader.tuningHeadroomSemitones, samples: loader.soundFontSamples)
            for warning in bank.warnings { loader.warn(warning) }
            return bank
        } catch {
            // A command-line option (`--soundfont`) is not a key of the instrument file: no file to name.
            let origin = key.hasPrefix("--") ? key : "\(self.path): \(key)"
            throw InstrumentError("\(origin): \(error.description)")
        }
    }

    /// The gain of every SoundFont voice: `--soundfont-gain`, else the file's `soundfontGain`, else
    /// FluidSynth's default (docs/SOUNDFONTS.md). The `.aupreset` sounds are not scaled.
    func soundFontGain() throws(InstrumentError) -> Double {
        if let gain = loader.soundFontGain { return gain }  // checked by the option
        guard let gain = loader.file.soundfontGain else { return SoundFontBankLoader.fluidSynthGain }
        guard SoundFontBankLoader.gainRange.contains(gain) else {
            throw InstrumentError("\(path): soundfontGain: \(gain) is not 0–10 (a linear gain, FluidSynth's synth.gain)")
        }
        return gain
    }

    /// The whole bank from one font: every part a General MIDI part (channel 10, or the file's
    /// `channels.drums`, on the drum kits), the font's table as FluidSynth selects from it.
    func soundFontBank(path font: String, key: String) throws(InstrumentError) -> ProgramBank {
        guard FileManager.default.fileExists(atPath: font) else { throw InstrumentError("\(key): SoundFont \(font) not found") }
        let drums = try oneBased(loader.file.channels?.drums ?? [10], key: "channels.drums")
        let parts = (0..<ProgramBank.partCount).map { PartSetup(isDrum: drums.contains($0)) }
        let bank = try loadSoundFont(font, selection: .wholeFont, firstProgram: 0, parts: parts, key: key)
        let zones = bank.programs.reduce(0) { $0 + $1.zones.count }
        let read = loader.soundFontSamples == .onNeed && loader.song == nil
            ? "sample data read on need" : String(format: "%.1f MB of sample data read", Double(bank.residentBytes) / 1_048_576)
        FileHandle.standardError.write(Data(String(
            format: "%@: %d presets, %d zones built, %@\n", (font as NSString).lastPathComponent, bank.programs.count, zones, read).utf8))
        return ProgramBank(programs: bank.programs, names: bank.names, table: bank.table, parts: parts)
    }
}
