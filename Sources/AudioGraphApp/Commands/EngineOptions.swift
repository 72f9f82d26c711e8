import ArgumentParser
import Foundation
import Engine
import SamplerLevels
import SoundFontLoading

/// Options shared by every command that builds the engine (`render`, `play`, `bench`).
struct EngineOptions: ParsableArguments {
    @Option(help: "Instrument file (JSON). Default: Instruments/default.json.")
    var instrument: String?

    @Option(help: "Sampler preset (.aupreset) every melodic part starts on, instead of the instrument file's.")
    var preset: String?

    @Option(help: "SoundFont (.sf2, .sf3) every part plays as a GM module, instead of the instrument's programs ('default': default-GM.sf2).")
    var soundfont: String?

    @Option(name: .customLong("soundfont-gain"), parsing: .unconditional, help: ArgumentHelp(
        "Linear gain of every SoundFont voice, as FluidSynth's -g (0…10; default: the instrument file's soundfontGain, else FluidSynth's 0.2).",
        discussion: "The bundled .aupreset sounds are not scaled."))
    var soundfontGain: Double?

    @Option(name: .customLong("sample-path"), help: "Directory to search for samples (repeatable).")
    var samplePaths: [String] = []

    @Option(name: .customLong("set"), help: "Set a parameter, name=value (repeatable; see `audiograph params`).")
    var assignments: [String] = []

    @Option(parsing: .unconditional, help: "Sample rate in Hz (8000…192000).")
    var rate: Int = 48000

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Memory the sampler's band-limited levels may take, in MB (0…1048576; default: a quarter of physical memory).",
        discussion: "Levels take ~52 bytes per sample; regions beyond the budget play without band-limiting."))
    var levelMemory: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Memory SoundFont sample data read on need may take while playing, in MB (1…1048576; default: a quarter of physical memory).",
        discussion: "`play` reads a font's samples as parts select programs and strike notes; beyond the budget the least recently used are let go."))
    var sampleMemory: Int?

    /// The instrument loader for these options; sets the process's budgets (`--level-memory`, `--sample-memory`).
    func loader() throws(InstrumentError) -> InstrumentLoader {
        if let levelMemory { LevelStore.shared.budget.limitBytes = levelMemory << 20 }
        if let sampleMemory { LevelStore.shared.sampleBudget.limitBytes = sampleMemory << 20 }
        // A SoundFont alone is a plain General MIDI module: none of the default instrument's loops,
        // controls, bus levels or master filters (an --instrument file given with it keeps its own).
        var loader = try soundfont != nil && instrument == nil ? InstrumentLoader(soundFontModule: ()) : InstrumentLoader(instrumentPath: instrument)
        loader.assignments = assignments
        loader.presetOverride = preset
        loader.soundFontOverride = try soundfont.map { name throws(InstrumentError) in name == "default" ? try Self.systemDefaultSoundFont() : name }
        loader.extraSamplePaths = samplePaths
        loader.soundFontGain = soundfontGain
        return loader
    }

    /// The font Debian's alternatives point `default-GM` at (fluid-soundfont-gm, timgm6mb-soundfont,
    /// fluidr3mono-gm-soundfont, …), SF2 first.
    static func systemDefaultSoundFont() throws(InstrumentError) -> String {
        for path in ["/usr/share/sounds/sf2/default-GM.sf2", "/usr/share/sounds/sf3/default-GM.sf3"] where FileManager.default.fileExists(atPath: path) {
            return path
        }
        throw InstrumentError("--soundfont default: no General MIDI SoundFont installed (sudo apt install fluid-soundfont-gm, or timgm6mb-soundfont)")
    }

    /// Run by ArgumentParser for every command that has these options.
    func validate() throws {
        try OptionRange.check(rate, 8000...192_000, "--rate", unit: "Hz")
        if let levelMemory { try OptionRange.check(levelMemory, 0...1_048_576, "--level-memory", unit: "MB") }
        if let sampleMemory { try OptionRange.check(sampleMemory, 1...1_048_576, "--sample-memory", unit: "MB") }
        if let soundfontGain { try OptionRange.check(soundfontGain, SoundFontBankLoader.gainRange, "--soundfont-gain") }
    }
}
