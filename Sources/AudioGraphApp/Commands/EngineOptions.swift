import ArgumentParser
import Foundation
import Engine

/// Options shared by every command that builds the engine (`render`, `play`, `bench`).
struct EngineOptions: ParsableArguments {
    @Option(help: "Instrument file (JSON). Default: Instruments/default.json.")
    var instrument: String?

    @Option(help: "Sampler preset (.aupreset) every melodic part starts on, instead of the instrument file's.")
    var preset: String?

    @Option(help: "SoundFont (.sf2, .sf3) every part plays as a GM module, instead of the instrument's programs ('default': default-GM.sf2).")
    var soundfont: String?

    @Option(name: .customLong("sample-path"), help: "Directory to search for samples (repeatable).")
    var samplePaths: [String] = []

    @Option(name: .customLong("set"), help: "Set a parameter, name=value (repeatable; see `audiograph params`).")
    var assignments: [String] = []

    @Option(help: "Sample rate in Hz.")
    var rate: Int = 48000

    func loader() throws(InstrumentError) -> InstrumentLoader {
        // A SoundFont alone is a plain General MIDI module: none of the default instrument's loops,
        // controls, bus levels or master filters (an --instrument file given with it keeps its own).
        var loader = try soundfont != nil && instrument == nil ? InstrumentLoader(soundFontModule: ()) : InstrumentLoader(instrumentPath: instrument)
        loader.assignments = assignments
        loader.presetOverride = preset
        loader.soundFontOverride = try soundfont.map { name throws(InstrumentError) in name == "default" ? try Self.systemDefaultSoundFont() : name }
        loader.extraSamplePaths = samplePaths
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

    func validateRate() throws {
        guard (8000...192_000).contains(rate) else { throw ValidationError("--rate must be between 8000 and 192000 Hz") }
    }
}
