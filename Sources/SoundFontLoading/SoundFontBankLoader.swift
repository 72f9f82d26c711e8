import MIDI
import Sampler
import SamplerLevels
import SoundFont

/// When a SoundFont's sample data is read.
public enum SoundFontSamples: Sendable, Equatable {
    /// While the programs are built: every zone's frames (a render's: only those its song plays).
    case atLoad
    /// Later, by the live builder (`LevelPublisher`), as parts select programs and strike notes:
    /// loading reads the font's structure only (`play`).
    case onNeed
}

/// What of a SoundFont becomes programs: the whole font, one bank, or one preset.
public enum SoundFontSelection: Sendable, Equatable {
    case wholeFont
    case bank(Int)
    case preset(bank: Int, program: Int)
}

/// A SoundFont's presets as sampler programs and a program table (bank → program → program
/// index), the way FluidSynth selects them: bank select CC0 ("gs" style), bank 128 on drum
/// parts, a missing preset substituted (drum: 128:0; melodic: 0:program, then 0:0). A program
/// change only picks an index; nothing is read then. Control thread.
public struct SoundFontBank: Sendable {
    public var programs: [SamplerProgram]
    /// "bank:program name" per program.
    public var names: [String]
    public var table: [Int: [PartProgram?]]
    /// One line each: the font's warnings, substitutions the song makes, the samples that cannot
    /// be read (one line for all) and the Vorbis streams that decode short (one line for all).
    public var warnings: [String]
    /// Bytes of sample data the programs hold (16-bit points or Float, before band-limited levels;
    /// 0 when read on need).
    public var residentBytes: Int
}

public enum SoundFontBankLoader {
    /// FluidSynth's default `synth.gain` (its `-g`): every voice's output × 0.2 (−14 dB). Fonts
    /// are balanced for it: at unity a full General MIDI song peaks well above full scale.
    public static let fluidSynthGain = 0.2
    /// FluidSynth's range for `synth.gain`.
    public static let gainRange = 0.0...10.0

    /// Loads `path` and builds `selection`. With `song` (the messages a render will play), only
    /// the presets the song selects are built, and of them only the zones its notes reach, so a
    /// render reads only the samples it plays; without it (live playing) every selected preset
    /// is built. `firstProgram` offsets the program indices in `table` (for merging into a
    /// larger bank). `gain` scales every voice (linear, FluidSynth's `synth.gain`).
    /// `tuningHeadroomSemitones`: how far above A4 = 440 Hz the player's tuning can be while the song plays.
    /// `samples` `.onNeed` (without a song): no sample data is read, the programs' regions wait
    /// for the live builder to read theirs (`SoundFontWaveforms`).
    public static func load(
        path: String, selection: SoundFontSelection = .wholeFont, song: [MIDIMessage]? = nil, parts: [PartSetup] = PartSetup.generalMIDI,
        firstProgram: Int = 0, levels: SamplerProgram.LevelBuilding = .byNeed, gain: Double = fluidSynthGain, tuningHeadroomSemitones: Double = 0,
        samples: SoundFontSamples = .atLoad
    ) throws(SoundFontError) -> SoundFontBank {
        let font = try SoundFontFile.load(path: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let chosen = font.presets.indices.filter { selection.includes(font.presets[$0]) }
        var table = Self.table(font: font, presets: chosen, firstProgram: firstProgram)
        Self.substituteMissingMelodic(&table)
        var warnings = font.warnings.map { "\(name): \($0)" }
        var keys: [Int: Set<Int>]?, pitchShifts: [Int: Double]?, steadyPitch: Set<Int> = []
        if let song {
            let plan = SoundFontSongPlan(
                font: font, presets: chosen, table: table, firstProgram: firstProgram, parts: parts, song: song,
                tuningHeadroomSemitones: tuningHeadroomSemitones)
            keys = plan.keys
            pitchShifts = plan.pitchShiftSemitones
            steadyPitch = plan.steadyPitch
            warnings += plan.substitutions.map { "\(name): \($0)" }
        }
        // A render's song names what it plays: that is read now, whatever `samples` says.
        let waveforms = SoundFontWaveforms(font: font, reading: song == nil ? samples : .atLoad)
        for (index, presetIndex) in chosen.enumerated() {
            for played in playedRegions(font: font, preset: presetIndex, keys: keys.map { $0[firstProgram + index] ?? [] }) {
                waveforms.expect(played.frames)
            }
        }
        waveforms.makeExpected()
        var programs: [SamplerProgram] = [], names: [String] = []
        var interner = SoundFontZoneMapping.ArticulationInterner()
        for (index, presetIndex) in chosen.enumerated() {
            let preset = font.presets[presetIndex]
            names.append("\(preset.bank):\(preset.program) \(preset.name)")
            let wanted = keys.map { $0[firstProgram + index] ?? [] }
            let built = try program(
                font: font, preset: presetIndex, keys: wanted, pitchShift: pitchShifts.map { $0[firstProgram + index] ?? 0 },
                steadyPitch: steadyPitch.contains(firstProgram + index), waveforms: waveforms, levels: levels, gain: gain, interner: &interner)
            programs.append(built)
        }
        if let unreadable = waveforms.unreadableWarning { warnings.append(unreadable) }
        if let short = waveforms.shortStreamsWarning { warnings.append("\(name): \(short)") }
        waveforms.releaseSampleData()
        return SoundFontBank(programs: programs, names: names, table: table, warnings: warnings, residentBytes: waveforms.residentBytes)
    }

    /// One program per preset: its regions (only those `keys` reach, when given) as SoundFont
    /// zones; `pitchShift`: how far above its keys the parts playing it bend (`SamplerGlobals.knownPitchShiftSemitones`);
    /// `steadyPitch`: they never move their pitch (`SamplerZone.playsAtRootPitch`).
    static func program(
        font: SoundFontFile, preset: Int, keys: Set<Int>?, pitchShift: Double? = nil, steadyPitch: Bool = false, waveforms: SoundFontWaveforms,
        levels: SamplerProgram.LevelBuilding,
        gain: Double = fluidSynthGain, interner: inout SoundFontZoneMapping.ArticulationInterner
    ) throws(SoundFontError) -> SamplerProgram {
        var zones: [SamplerZone] = []
        for (region, sample, frames) in playedRegions(font: font, preset: preset, keys: keys) {
            // A sample that cannot be read leaves its zones out: said once for the sample,
            // however many zones play it (`SoundFontWaveforms.unreadableWarning`).
            guard let (waveform, frames) = try? waveforms.waveform(for: frames) else { continue }
            // A render plays only the struck keys: the zone narrowed to them reaches no
            // higher than they do, so its levels stop at the steps the song asks for.
            var range: ClosedRange<Int>?
            if let struck = keys?.filter(region.keyRange.contains), let low = struck.min(), let high = struck.max() { range = low...high }
            zones.append(SoundFontZoneMapping.zone(
                region, sample: sample, frames: frames, waveform: waveform, gain: gain, keys: range, steadyPitch: steadyPitch, interner: &interner))
        }
        var layer = SamplerLayer()
        layer.lfo = nil
        do {
            let program = try SamplerProgram(layers: [layer], zones: zones, globals: SamplerGlobals(voiceCount: SamplerConstants.hardMaxVoices, knownPitchShiftSemitones: pitchShift))
            if levels == .atLoad { program.buildAllLevels() }
            return program
        } catch {
            throw SoundFontError(path: font.path, chunk: "pdta", reason: "preset \(font.presets[preset].name): \(error.description)")
        }
    }

    /// The regions of `preset` that become zones (those `keys` reach, when given; none for no
    /// keys), each with its sample and the frames it plays.
    static func playedRegions(font: SoundFontFile, preset: Int, keys: Set<Int>?) -> [(region: SoundFontRegion, sample: SoundFontSample, frames: SoundFontZoneMapping.Frames)] {
        guard keys?.isEmpty != true else { return [] }
        return font.regions(ofPreset: preset).compactMap { region in
            if let keys, !keys.contains(where: region.keyRange.contains) { return nil }
            let sample = font.samples[region.sample]
            return SoundFontZoneMapping.frames(
                of: region, frameCount: sample.frameCount, loopStart: sample.loopStart, loopEnd: min(sample.loopEnd, sample.frameCount)
            ).map { (region, sample, $0) }
        }
    }

    /// Bank → 128 entries: each chosen preset at its bank:program (the first of duplicates, as
    /// the spec asks; FluidSynth's choice between duplicates is unspecified).
    static func table(font: SoundFontFile, presets: [Int], firstProgram: Int) -> [Int: [PartProgram?]] {
        var table: [Int: [PartProgram?]] = [:]
        for (index, presetIndex) in presets.enumerated() {
            let preset = font.presets[presetIndex]
            guard (0...128).contains(preset.bank), (0...127).contains(preset.program) else { continue }
            var row = table[preset.bank] ?? [PartProgram?](repeating: nil, count: 128)
            if row[preset.program] == nil { row[preset.program] = .sampler(firstProgram + index) }
            table[preset.bank] = row
        }
        return table
    }

    /// FluidSynth's last resort for a melodic part: a program bank 0 lacks plays 0:0 (the
    /// program table already falls back from any bank to bank 0).
    static func substituteMissingMelodic(_ table: inout [Int: [PartProgram?]]) {
        guard var row = table[0], let first = row[0] else { return }
        for p in 0..<128 where row[p] == nil { row[p] = first }
        table[0] = row
    }
}

extension SoundFontSelection {
    func includes(_ preset: SoundFontPreset) -> Bool {
        switch self {
        case .wholeFont: true
        case .bank(let bank): preset.bank == bank
        case .preset(let bank, let program): preset.bank == bank && preset.program == program
        }
    }
}
