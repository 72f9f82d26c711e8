import MIDI
import Sampler
import SamplerLevels
import SoundFont

/// What a song plays of a SoundFont, found before anything is read: per program index, the keys
/// struck on it (each channel's program followed through bank selects, program changes and the
/// drum part exactly as the instrument will follow it), and one line per preset the song asks
/// for that the font lacks, naming what FluidSynth plays instead. Control thread.
struct SoundFontSongPlan {
    private(set) var keys: [Int: Set<Int>] = [:]
    private(set) var substitutions: [String] = []
    /// `LevelBuildPlan.pitchShiftSemitones` of the song: per program index, how far above its keys
    /// the parts playing it bend and tune.
    private(set) var pitchShiftSemitones: [Int: Double] = [:]
    /// `LevelBuildPlan.steadyPitch` of the song.
    private(set) var steadyPitch: Set<Int> = []

    init(
        font: SoundFontFile, presets: [Int], table: [Int: [PartProgram?]], firstProgram: Int, parts: [PartSetup], song: [MIDIMessage],
        tuningHeadroomSemitones: Double
    ) {
        // The same table over empty programs: lookups cost nothing and match the real bank's.
        var layer = SamplerLayer()
        layer.lfo = nil
        let empty = (try? SamplerProgram(layers: [layer], zones: [])).map { program in
            [SamplerProgram](repeating: program, count: firstProgram + presets.count)
        } ?? []
        guard empty.count == firstProgram + presets.count else { return }
        let bank = ProgramBank(programs: empty, names: empty.map { _ in "" }, table: table, parts: parts)
        let plan = LevelBuildPlan(bank: bank, messages: song, tuningHeadroomSemitones: tuningHeadroomSemitones)
        keys = plan.keys
        pitchShiftSemitones = plan.pitchShiftSemitones
        steadyPitch = plan.steadyPitch
        var reported = Set<String>()
        var controllers = [ChannelControllerState](repeating: ChannelControllerState(), count: ProgramBank.partCount)
        for message in song {
            let channel = Int(message.channel & 15)
            switch message.normalized {
            case .controlChange(_, let controller, let value):
                _ = controllers[channel].apply(controller: controller, value: value)
            case .programChange(_, let program):
                let isDrum = bank.parts[channel].isDrum
                let asked = isDrum ? ProgramBank.percussionBank : Int(controllers[channel].bankMSB)
                guard table[asked]?[Int(program)] == nil, reported.insert("\(asked):\(program)").inserted else { continue }
                let got = bank.lookup(bank: asked, program: Int(program), isDrum: isDrum).map { Self.name($0, font: font, presets: presets, first: firstProgram) }
                substitutions.append(
                    "no preset \(asked):\(program) for channel \(channel + 1): " + (got.map { "it plays \($0), as FluidSynth substitutes" } ?? "it is silent"))
            default:
                break
            }
        }
    }

    private static func name(_ program: PartProgram, font: SoundFontFile, presets: [Int], first: Int) -> String {
        guard case .sampler(let index) = program, presets.indices.contains(index - first) else { return "nothing" }
        let preset = font.presets[presets[index - first]]
        return "\(preset.bank):\(preset.program) \(preset.name)"
    }
}
