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

    /// Control thread: follows `messages` (in song order) through `bank`'s program table.
    public init(bank: ProgramBank, messages: some Sequence<MIDIMessage>) {
        var controllers = [ChannelControllerState](repeating: ChannelControllerState(), count: ProgramBank.partCount)
        var programs = (0..<ProgramBank.partCount).map { bank.startProgram(channel: $0) }
        var isDrum = bank.parts.map(\.isDrum)
        for message in messages {
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
                if case .sampler(let index) = programs[channel] { keys[index, default: []].insert(Int(note)) }
            case .controlChange(_, let controller, let value):
                _ = controllers[channel].apply(controller: controller, value: value)
            case .programChange(_, let program):
                let selected = bank.lookup(bank: Int(controllers[channel].bankMSB), program: Int(program), isDrum: isDrum[channel])
                if let selected { programs[channel] = selected }
            default:
                break
            }
        }
    }

    /// Builds (and publishes) the levels of every region the plan's notes can start, as far as
    /// `store`'s budget allows (the report says what did not fit).
    @discardableResult
    public func build(in bank: ProgramBank, store: LevelStore = .shared) -> LevelReport {
        var report = LevelReport(budgetBytes: store.budget.limitBytes)
        for (index, struck) in keys.sorted(by: { $0.key < $1.key }) where bank.programs.indices.contains(index) {
            report = report + bank.programs[index].buildLevels(forKeys: struck, store: store)
        }
        return report
    }
}
