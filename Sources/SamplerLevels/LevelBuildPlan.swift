import MIDI
import Sampler

/// What a song can play, for building band-limited levels before an offline render: per sampler
/// program of the bank, the keys its notes strike. Each channel's program is followed through the
/// song as the instrument follows it (start program, bank select, program change, the drum
/// part's bank), so an empty song builds nothing and a song builds only the regions its notes
/// reach (resets and GS rhythm parts followed too). Built synchronously before the first block, the render stays deterministic and every
/// note plays band-limited.
public struct LevelBuildPlan: Sendable, Equatable {
    /// Program index in the bank → keys struck on it.
    public private(set) var keys: [Int: Set<Int>] = [:]
    /// Program index → key → the positions (in `messages`, from 0) of the note-ons striking it,
    /// in song order, for `LevelSchedule`.
    public private(set) var strikes: [Int: [Int: [Int]]] = [:]
    /// Whether the song widens a pitch-bend range beyond 2 semitones (RPN 0): then the regions
    /// get the margin levels too (`LevelRequest.levelCount`), else only those their zones reach.
    public private(set) var widensBendRange = false
    /// The largest upward shift the song's own pitch messages ask beyond its keys, semitones:
    /// its widest upward bend × the widest bend range it sets, its RPN fine and coarse tuning,
    /// and 1 semitone for vibrato (mod wheel and channel pressure reach 50 cents each through a
    /// SoundFont's default modulators) and master tuning. For `SamplerGlobals.knownPitchShiftSemitones`.
    public var pitchShiftSemitones: Double { bendUp * widestBendRange + tuningUp + 1 }
    private var bendUp = 0.0, widestBendRange = 2.0, tuningUp = 0.0

    /// Control thread: follows `messages` (in song order) through `bank`'s program table.
    public init(bank: ProgramBank, messages: some Sequence<MIDIMessage>) {
        var controllers = [ChannelControllerState](repeating: ChannelControllerState(), count: ProgramBank.partCount)
        var programs = (0..<ProgramBank.partCount).map { bank.startProgram(channel: $0) }
        var isDrum = bank.parts.map(\.isDrum)
        for (position, message) in messages.enumerated() {
            let channel = Int(message.channel & 15)
            switch message.normalized {
            case .system(.reset):
                controllers = [ChannelControllerState](repeating: ChannelControllerState(), count: ProgramBank.partCount)
                programs = (0..<ProgramBank.partCount).map { bank.startProgram(channel: $0) }
                isDrum = bank.parts.map(\.isDrum)
            case .system(.rhythmPart(_, let map)):
                isDrum[channel] = map != 0
                if let selected = bank.lookup(bank: Int(controllers[channel].bankMSB), program: 0, isDrum: isDrum[channel]) {
                    programs[channel] = selected
                }
            case .noteOn(_, let note, _):
                if case .sampler(let index) = programs[channel] {
                    keys[index, default: []].insert(Int(note))
                    strikes[index, default: [:]][Int(note), default: []].append(position)
                }
            case .controlChange(_, let controller, let value):
                _ = controllers[channel].apply(controller: controller, value: value)
                let state = controllers[channel]
                if (state.bendRangeSemitones ?? 2) > 2 { widensBendRange = true }
                widestBendRange = max(widestBendRange, state.bendRangeSemitones ?? 2)
                tuningUp = max(tuningUp, Double(state.fineTuningData - 8192) / 8192 + Double(state.coarseTuningData) - 64)
            case .pitchBend(_, let value):
                bendUp = max(bendUp, Double(value) / 8191)
            case .programChange(_, let program):
                let selected = bank.lookup(bank: Int(controllers[channel].bankMSB), program: Int(program), isDrum: isDrum[channel])
                if let selected { programs[channel] = selected }
            default:
                break
            }
        }
    }

    /// Builds (and publishes) the levels of every region the plan's notes can start, as far as
    /// `store`'s budget allows (the report says what did not fit). The song is known, so the
    /// margin for bends it does not make is left out: a region played at its root gets the levels
    /// up to its zones' reach (often 2 of 6, 7 floats a frame instead of 12).
    @discardableResult
    public func build(in bank: ProgramBank, store: LevelStore = .shared) -> LevelReport {
        var report = LevelReport(budgetBytes: store.budget.limitBytes)
        for (index, struck) in keys.sorted(by: { $0.key < $1.key }) where bank.programs.indices.contains(index) {
            report = report + bank.programs[index].buildLevels(forKeys: struck, store: store, margin: widensBendRange)
        }
        return report
    }
}
