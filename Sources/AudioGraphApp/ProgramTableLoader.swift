import Engine
import FileAccess
import Foundation
import Sampler
import SamplerLevels
import SamplerLoading

/// Builds the `ProgramBank` from an instrument file's program table, banks, `preset` and
/// `channels`: every preset the table names is loaded now (control thread), once, so that program
/// changes on the render thread only pick an index. Errors name the file and the key at fault.
struct ProgramTableLoader {
    let loader: InstrumentLoader
    let sampleRate: Double

    var path: String { loader.instrumentPath }

    /// nil when the file names no preset and no program table (every part plays the synth).
    func bank() throws(InstrumentError) -> ProgramBank? {
        if let font = loader.soundFontOverride { return try soundFontBank(path: font, key: "--soundfont") }
        _ = try soundFontGain()  // a bad `soundfontGain` is named even when no SoundFont is loaded
        let file = loader.file
        var rows: [Int: [PartProgram?]] = [:]
        var programs: [SamplerProgram] = [], names: [String] = [], indexByPath: [String: Int] = [:]
        var indexBySettings: [ProgramSettings: Int] = [:]
        let resolutions = SampleResolutions()

        func sound(_ entry: ProgramEntry, key: String) throws(InstrumentError) -> PartProgram {
            switch entry {
            case .sound("synth"): return .synth
            case .sound("none"): return .none
            case .sound(let value) where Self.isSoundFontPath(value.split(separator: "#").first.map(String.init) ?? value):
                guard let reference = SoundFontReference(value, relativeTo: loader.baseDirectory) else {
                    throw InstrumentError("\(path): \(key): a SoundFont sound is FILE.sf2#bank:program (the whole font: the \"soundfont\" key)")
                }
                if let index = indexByPath[value] { return .sampler(index) }
                let font = try loadSoundFont(
                    reference.path, selection: .preset(bank: reference.bank, program: reference.program), firstProgram: programs.count,
                    parts: PartSetup.generalMIDI, key: key)
                guard let program = font.programs.first else {
                    throw InstrumentError("\(path): \(key): \(reference.path) has no preset \(reference.bank):\(reference.program)")
                }
                programs.append(program)
                names.append(font.names[0])
                indexByPath[value] = programs.count - 1
                return .sampler(programs.count - 1)
            case .sound(let value): return .sampler(try load(InstrumentLocator.resolve(value, relativeTo: loader.baseDirectory), key: key))
            case .preset(var settings):
                settings.preset = InstrumentLocator.resolve(settings.preset, relativeTo: loader.baseDirectory)
                let base = try load(settings.preset, key: key)
                if settings.changesNothing && (settings.name == nil || settings.name == names[base]) { return .sampler(base) }
                if let index = indexBySettings[settings] { return .sampler(index) }
                // Each preset file is read once; entries with settings are variants playing its waveforms.
                do {
                    let variant = try settings.applied(to: programs[base])
                    // Built now when the loader builds at load (the base's levels are shared, not rebuilt).
                    if loader.levels == .atLoad, let warning = variant.buildAllLevels().warning { loader.warn(warning) }
                    programs.append(variant)
                } catch {
                    throw InstrumentError("\(path): \(key): \(error.description)")
                }
                names.append(settings.name ?? names[base])
                indexBySettings[settings] = programs.count - 1
                return .sampler(programs.count - 1)
            }
        }
        func load(_ preset: String, key: String) throws(InstrumentError) -> Int {
            if let index = indexByPath[preset] { return index }
            try checkExists(preset, key: key)
            let loaded = try loader.loadPreset(path: preset, sampleRate: sampleRate, resolutions: resolutions)
            for w in loaded.warnings { loader.warn("\((preset as NSString).lastPathComponent): \(w)") }
            programs.append(loaded.program)
            names.append(((preset as NSString).lastPathComponent as NSString).deletingPathExtension)
            indexByPath[preset] = programs.count - 1
            return programs.count - 1
        }
        var selection = loader.programSelection
        selection?.include(programs: startPrograms())
        // An entry the song cannot select is left out (nil) and its preset not loaded (`render`).
        func row(_ table: InstrumentFile.ProgramTable, bank: Int, key: String) throws(InstrumentError) -> [PartProgram?] {
            var row = [PartProgram?](repeating: nil, count: 128)
            func wanted(_ numbers: ClosedRange<Int>) -> [Int] { numbers.filter { selection?.mayUse(bank: bank, program: $0) ?? true } }
            switch table {
            case .list(let list):
                guard list.count <= 128 else { throw InstrumentError("\(path): \(key): \(list.count) programs, at most 128") }
                for (number, value) in list.enumerated() where !wanted(number...number).isEmpty {
                    row[number] = try sound(value, key: "\(key)[\(number)]")
                }
            case .ranges(let ranges):
                for (range, value) in ranges.sorted(by: { $0.key < $1.key }) {
                    let entryKey = "\(key).\"\(range)\""
                    let numbers = wanted(try programNumbers(range, key: entryKey))
                    guard !numbers.isEmpty else { continue }
                    let program = try sound(value, key: entryKey)
                    for n in numbers { row[n] = program }
                }
            }
            return row
        }

        if let font = file.soundfont {
            let path = InstrumentLocator.resolve(font, relativeTo: loader.baseDirectory)
            guard FileManager.default.fileExists(atPath: path) else { throw InstrumentError("\(self.path): soundfont: \(path) not found") }
            let drums = try oneBased(file.channels?.drums ?? [10], key: "channels.drums")
            let whole = try loadSoundFont(
                path, selection: .wholeFont, firstProgram: 0, parts: (0..<16).map { PartSetup(isDrum: drums.contains($0)) }, key: "soundfont")
            programs = whole.programs
            names = whole.names
            rows = whole.table
        }
        if let table = file.programs { rows[0] = try row(table, bank: 0, key: "programs") }
        for (name, table) in (file.banks ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let number = Int(name), (0...ProgramBank.percussionBank).contains(number) else {
                throw InstrumentError("\(path): banks.\"\(name)\": a bank is a number 0–128 (128: General MIDI percussion)")
            }
            rows[number] = try row(table, bank: number, key: "banks.\"\(name)\"")
        }
        var startPreset: PartProgram?
        if let preset = loader.presetPath {
            startPreset = .sampler(try load(preset, key: loader.presetOverride == nil ? "preset" : "--preset"))
            // A preset without a table answers every program number, as the one sound it is.
            if rows[0] == nil { rows[0] = [PartProgram?](repeating: startPreset, count: 128) }
        }
        let setups = try parts(startPreset: startPreset)  // validated even when there is nothing to play
        guard !rows.isEmpty else { return nil }
        return ProgramBank(programs: programs, names: names, table: rows, parts: setups)
    }

    /// A preset that cannot be opened is named with the real cause (not found, a symlink loop, a NUL
    /// in the path, no permission), and blamed on the instrument file only if it came from there.
    private func checkExists(_ preset: String, key: String) throws(InstrumentError) {
        let place = key == "--preset" ? "--preset" : "\(path): \(key)"
        let shown = PrintableText.escaped(preset)
        guard !preset.utf8.contains(0) else { throw InstrumentError("\(place): the preset path \(shown) contains a NUL byte") }
        var status = stat()
        guard stat(preset, &status) == 0 else {
            let reason = errno == ENOENT ? "not found" : String(cString: strerror(errno))
            throw InstrumentError("\(place): preset \(shown): \(reason)")
        }
    }

    /// The program numbers `channels.start` names (parts start on them).
    private func startPrograms() -> [Int] {
        (loader.file.channels?.start ?? [:]).values.compactMap { value in
            if case .number(let n) = value, n == n.rounded(), (0...127).contains(n) { return Int(n) }
            return nil
        }
    }

    /// "33" or "32-39" → program numbers.
    private func programNumbers(_ text: String, key: String) throws(InstrumentError) -> ClosedRange<Int> {
        let ends = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard (1...2).contains(ends.count), let low = ends.first ?? nil, let high = ends.last ?? nil,
              (0...127).contains(low), (0...127).contains(high), low <= high else {
            throw InstrumentError("\(path): \(key): a program number 0–127 or a range such as \"32-39\"")
        }
        return low...high
    }

    /// How the 16 parts start, from `channels` (drum parts, starting programs) and `preset`.
    private func parts(startPreset: PartProgram?) throws(InstrumentError) -> [PartSetup] {
        let channels = loader.file.channels
        let drums = try oneBased(channels?.drums ?? [10], key: "channels.drums")
        var setups = (0..<16).map { PartSetup(isDrum: drums.contains($0), startOverride: drums.contains($0) ? nil : startPreset) }
        for c in try oneBased(channels?.synth ?? [], key: "channels.synth") where !(channels?.sampler ?? []).contains(c + 1) {
            setups[c].startOverride = .synth
        }
        // The demo's own starts (its pads on the synth) are checked always, applied only while it plays.
        let starts = (channels?.start ?? [:]).map { ("channels.start", $0.key, $0.value) }
            + (loader.file.demo?.start ?? [:]).map { ("demo.start", $0.key, $0.value) }
        for (section, name, value) in starts.sorted(by: { ($0.0, $0.1) < ($1.0, $1.1) }) {
            let key = "\(section).\"\(name)\""
            guard let channel = Int(name), (1...16).contains(channel) else { throw InstrumentError("\(path): \(key): a channel is 1–16") }
            var setup = setups[channel - 1]
            switch value {
            case .text("synth"): setup.startOverride = .synth
            case .text("none"): setup.startOverride = PartProgram.none
            case .number(let n) where n == n.rounded() && (0...127).contains(n):
                setup.program = Int(n)
                setup.startOverride = nil
            default: throw InstrumentError("\(path): \(key): a program number 0–127, \"synth\" or \"none\"")
            }
            if section == "channels.start" || loader.playsDemo { setups[channel - 1] = setup }
        }
        return setups
    }

    /// 1-based channel list → 0-based set; errors name `key`.
    func oneBased(_ list: [Int], key: String) throws(InstrumentError) -> Set<Int> {
        for c in list where !(1...16).contains(c) { throw InstrumentError("\(path): \(key): MIDI channel \(c) is not 1–16") }
        return Set(list.map { $0 - 1 })
    }
}
