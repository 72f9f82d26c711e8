import AudioFiles
import DSP
import Engine
import FileAccess
import Foundation
import Instruments
import MIDI
import Presets
import Sampler
import SamplerLevels
import SamplerLoading
import SoundFontLoading

/// Turns an instrument file into a ready engine: decodes the loop files at the engine rate, builds
/// channel routing and control mappings, applies parameter values (file first, then `--set`).
/// Control thread; may take a while (file I/O, resampling).
public struct InstrumentLoader: Sendable {
    public var instrumentPath: String
    public var file: InstrumentFile
    /// `--set name=value` overrides, applied after the file's parameters.
    public var assignments: [String] = []
    /// `--preset` override for the sampler bus.
    public var presetOverride: String?
    /// `--soundfont`: every part plays this font's presets (the file's programs are not loaded).
    public var soundFontOverride: String?
    /// `--soundfont-gain`: the linear gain of every SoundFont voice, over the file's `soundfontGain`.
    public var soundFontGain: Double?
    /// The song a render will play: a SoundFont then builds only what it plays (`SoundFontSongPlan`).
    public var song: [MIDIMessage]?
    /// `--sample-path` directories, searched before the file's.
    public var extraSamplePaths: [String] = []
    /// `render --solo`: only this channel (0-based) plays, whatever the file's `channels.play`.
    public var soloChannel: Int?
    /// The demo is what plays (`audiograph demo`, `render` without `--midi`): the demo's own
    /// loops and control mappings are added to the instrument's.
    public var playsDemo = false
    /// When programs build their band-limited levels: `render` and `play` build them by need
    /// (`LevelBuildPlan`, `LevelPublisher`), off the start path.
    public var levels = SamplerProgram.LevelBuilding.atLoad
    /// When SoundFont sample data is read: `play` reads it on need (the live builder, within
    /// `--sample-memory`), so loading a font reads its structure only.
    public var soundFontSamples = SoundFontSamples.atLoad
    /// `render`: load only the table entries the song can select (nil: all of them, as `play` must).
    public var programSelection: ProgramSelection?

    public init(instrumentPath: String?) throws(InstrumentError) {
        guard let path = instrumentPath ?? InstrumentLocator.defaultInstrumentPath() else {
            throw InstrumentError("no instrument file given and no default instrument found (use --instrument FILE, put one in ~/.config/audiograph/default.json, or set AUDIOGRAPH_HOME)")
        }
        self.instrumentPath = path
        file = try InstrumentFile.load(path: path)
    }

    /// An instrument with nothing but its sound set, for `--soundfont` without `--instrument`:
    /// every part a General MIDI part of the font, unity levels, no loops, controls or filters.
    public init(soundFontModule: Void) {
        instrumentPath = FileManager.default.currentDirectoryPath + "/(SoundFont module)"
        file = InstrumentFile(name: "SoundFont")
    }

    /// How far above A4 = 440 Hz the player's tuning can be while a song plays, semitones: the top
    /// of `tuning.a4`'s range when the file, `--set` or a control mapping touches it, else 0. A
    /// render's SoundFont levels leave this much room above the song's own pitch messages.
    var tuningHeadroomSemitones: Double {
        let name = "tuning.a4"
        let touched = file.parameters?[name] != nil || assignments.contains { $0.hasPrefix(name + "=") } || controlEntries.contains { $0.parameter == name }
        return touched ? MasterTuning.a4Semitones(MasterTuning.a4Range.upperBound) : 0
    }

    var baseDirectory: String { (instrumentPath as NSString).deletingLastPathComponent }

    /// The sampler preset in effect (override, else the file's), absolute.
    public var presetPath: String? {
        if let presetOverride { return presetOverride }
        return file.preset.map { InstrumentLocator.resolve($0, relativeTo: baseDirectory) }
    }

    public var demoPath: String? {
        file.demo.map { InstrumentLocator.resolve($0.song, relativeTo: baseDirectory) }
    }

    private var loopFiles: [String: String] {
        let demoLoops = playsDemo ? file.demo?.loops ?? [:] : [:]
        return (file.loops ?? [:]).merging(demoLoops) { _, demo in demo }
    }

    public var samplePaths: [String] {
        extraSamplePaths + (file.samplePaths ?? []).map { InstrumentLocator.resolve($0, relativeTo: baseDirectory) }
    }

    /// Builds the engine at `configuration`'s rate. Errors name the file or parameter at fault.
    public func makeEngine(configuration: EngineConfiguration) throws(InstrumentError) -> AudioEngine {
        var content = EngineContent()
        var cache: [String: LoopSample] = [:]
        for (busName, relative) in loopFiles.sorted(by: { $0.key < $1.key }) {
            guard let bus = BusID.allCases.first(where: { $0.name == busName }), [.guitar, .beat, .file].contains(bus) else {
                throw InstrumentError("\(instrumentPath): unknown loop bus '\(busName)' (use guitar, beat or file)")
            }
            let path = InstrumentLocator.resolve(relative, relativeTo: baseDirectory)
            if let cached = cache[path] {
                content.loops[bus] = cached
                continue
            }
            let sample = try loadLoop(path: path, bus: busName, sampleRate: configuration.sampleRate)
            cache[path] = sample
            content.loops[bus] = sample
        }
        content.programBank = try ProgramTableLoader(loader: self, sampleRate: configuration.sampleRate).bank()
        content.routing = try routing()
        content.controls = try controls()
        let engine: AudioEngine
        do {
            engine = try AudioEngine(configuration: configuration, content: content)
        } catch {
            throw InstrumentError(error.description)
        }
        for (name, value) in (file.parameters ?? [:]).sorted(by: { $0.key < $1.key }) {
            do {
                try engine.parameters.set(name, text: value.text)
            } catch {
                throw InstrumentError("\(instrumentPath): parameters: \(error.description)")
            }
        }
        do {
            try engine.parameters.apply(assignments: assignments)
            engine.performControlWork()  // builds what the parameters select before the first block
        } catch {
            throw InstrumentError(error.description)
        }
        return engine
    }

    /// Parses a preset and loads its samples into a program for the sampler bus. Partial failures
    /// (some samples missing) are warnings: the preset plays what it can.
    /// Presets loaded with one `resolutions` search for each sample reference once.
    public func loadPreset(path: String, sampleRate: Double, resolutions: SampleResolutions? = nil) throws(InstrumentError) -> SamplerLoadResult {
        do {
            let preset = try AUPreset.load(path: path)
            return try SamplerProgramBuilder.build(
                preset: preset, presetPath: path, searchDirectories: samplePaths, sampleRate: sampleRate, levels: levels,
                resolutions: resolutions)
        } catch let error as PresetError {
            throw InstrumentError(error.description)
        } catch let error as SamplerLoadError {
            throw InstrumentError(error.description)
        } catch {
            throw InstrumentError("\(path): \(error)")
        }
    }

    /// Warnings go to stderr so that stdout stays clean for summaries and JSON.
    public var warn: @Sendable (String) -> Void = {
        FileHandle.standardError.write(Data("warning: \(PrintableText.escaped($0, keepingNewlines: true))\n".utf8))
    }

    private func loadLoop(path: String, bus: String, sampleRate: Double) throws(InstrumentError) -> LoopSample {
        let audio: DecodedAudio
        do {
            audio = try AudioFileReader.read(path: path, convertingTo: sampleRate, wholeFileLoops: true)
        } catch {
            throw InstrumentError("loop '\(bus)': \(error)")
        }
        for warning in audio.warnings { warn("loop '\(bus)': \(warning)") }
        guard let sample = LoopSample(name: (path as NSString).lastPathComponent, channels: audio.channels) else {
            throw InstrumentError("loop '\(bus)': \(path) holds no audio")
        }
        return sample
    }

    /// The channels that play: `channels.play`, or those the older form lists, or all 16.
    private func routing() throws(InstrumentError) -> ChannelRouting {
        if let soloChannel { return ChannelRouting(playing: [soloChannel]) }
        guard let channels = file.channels else { return ChannelRouting() }
        let tables = ProgramTableLoader(loader: self, sampleRate: 0)
        if let play = channels.play { return ChannelRouting(playing: try tables.oneBased(play, key: "channels.play")) }
        guard channels.sampler != nil || channels.synth != nil else { return ChannelRouting() }
        let sampler = try tables.oneBased(channels.sampler ?? [], key: "channels.sampler")
        return ChannelRouting(playing: sampler.union(try tables.oneBased(channels.synth ?? [], key: "channels.synth")))
    }

    /// The file's control mappings, and the demo's when the demo plays.
    private var controlEntries: [InstrumentFile.Control] { (file.controls ?? []) + (playsDemo ? file.demo?.controls ?? [] : []) }

    private func controls() throws(InstrumentError) -> [ControlMapping] {
        try controlEntries.map { c throws(InstrumentError) in
            if let ch = c.channel, !(1...16).contains(ch) { throw InstrumentError("\(instrumentPath): control channel \(ch) is not 1–16") }
            let trigger: ControlMapping.Trigger
            switch (c.cc, c.note) {
            case (let cc?, nil) where (0...127).contains(cc): trigger = .controller(UInt8(cc))
            case (nil, let note?) where (0...127).contains(note): trigger = .note(UInt8(note))
            default: throw InstrumentError("\(instrumentPath): control for \(c.parameter) needs exactly one of cc or note (0–127)")
            }
            return ControlMapping(channel: c.channel.map { UInt8($0 - 1) }, trigger: trigger, parameter: c.parameter)
        }
    }
}
