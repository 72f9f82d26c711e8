import MIDI

/// The program-table entries a song can select, so that `render` loads only the presets the song
/// plays: any program number a program change names, in any bank a bank select (CC0) names, plus
/// bank 0 (where a melodic bank lacking a program falls back), the percussion bank 128 and its
/// kit 0 (a drum part's fallback), and the programs parts start on. Deliberately generous — a
/// program number counts for every channel and every bank, drum or melodic — so that whatever a
/// channel's controllers, resets or rhythm-part messages make of it, the entry it selects is loaded.
public struct ProgramSelection: Sendable, Equatable {
    public private(set) var programs: Set<Int> = [0]
    public private(set) var banks: Set<Int> = [0, 128]

    public init(messages: some Sequence<MIDIMessage>) {
        for message in messages {
            switch message.normalized {
            case .programChange(_, let program): programs.insert(Int(program))
            case .controlChange(_, 0, let bank): banks.insert(Int(bank))
            default: break
            }
        }
    }

    /// Adds program numbers the parts start on (`channels.start`).
    mutating func include(programs more: some Sequence<Int>) { programs.formUnion(more) }

    func mayUse(bank: Int, program: Int) -> Bool { banks.contains(bank) && programs.contains(program) }
}
