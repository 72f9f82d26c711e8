/// What one part (MIDI channel) plays: a sampler program of the bank, the engine's sine synth,
/// or nothing. Plain value; the render thread switches on it.
import MemberwiseInit

public enum PartProgram: Sendable, Equatable {
    case none
    case synth
    /// Index into `ProgramBank.programs`.
    case sampler(Int)
}

/// How a part starts: its General MIDI program number, whether it is a drum part (its programs
/// come from the percussion bank 128, like channel 10 in General MIDI), and an optional sound that
/// replaces the table's entry for that start (e.g. `--preset`).
@PublicInit
public struct PartSetup: Sendable, Equatable {
    public var program: Int = 0
    public var isDrum: Bool = false
    public var startOverride: PartProgram? = nil

    /// Program 0 on every channel, channel 10 (index 9) the drum part.
    public static let generalMIDI: [PartSetup] = (0..<16).map { PartSetup(isDrum: $0 == 9) }
}

/// Raw tables of one program, for the render thread (valid while the bank is retained).
struct ProgramTables {
    var zones: UnsafeMutableBufferPointer<ZonePlayback>
    var regions: UnsafeMutableBufferPointer<PlaybackRegion>
    var layers: UnsafeMutableBufferPointer<SamplerLayer>
    var soundFontZones: UnsafeMutableBufferPointer<SF2ZoneTables>
    var voiceCount: Int
    /// Where the render thread stamps a selection and counts notes on unprepared regions.
    var cell: UnsafePointer<ProgramCell>

    init(_ program: SamplerProgram) {
        zones = program.zonePlayback
        regions = program.regionTable
        layers = program.layerTable
        soundFontZones = program.soundFontStorage.table
        voiceCount = program.globals.voiceCount
        cell = UnsafePointer(program.cell)
    }
}

/// The instrument's sounds, immutable: every sampler program loaded up front, the program table
/// (bank → program number 0…127 → what plays) and how the 16 parts start. Built on the control
/// thread and handed to `SamplerInstrument.submit(_:)`; the render thread then switches a part's
/// program by index (`lookup`), so a program change allocates nothing, locks nothing, reads no
/// file, and sounding notes keep pointing into programs this bank keeps alive.
///
/// @unchecked Sendable: immutable after `init` (its render tables are raw memory written there).
public final class ProgramBank: @unchecked Sendable {
    /// The General MIDI percussion bank (as FluidSynth numbers it): drum parts pick from it.
    public static let percussionBank = RenderTables.percussionBank
    public static let partCount = 16

    public let programs: [SamplerProgram]
    /// A display name per program (e.g. the preset's file name).
    public let names: [String]
    /// Bank number → 128 entries (nil: not defined, a program change to it is ignored).
    public let table: [Int: [PartProgram?]]
    public let parts: [PartSetup]

    /// What the render thread reads of the bank: raw tables, no class reference (a call on the
    /// bank object would retain it). Valid while the bank lives.
    let renderTables: RenderTables

    /// Control thread. `table` rows shorter than 128 are padded with nil; `parts` with GM defaults.
    /// Entries must index `programs`.
    public init(programs: [SamplerProgram], names: [String], table: [Int: [PartProgram?]], parts: [PartSetup] = PartSetup.generalMIDI) {
        precondition(names.count == programs.count, "one name per program")
        self.programs = programs
        self.names = names
        self.table = table
        self.parts = Array((parts + PartSetup.generalMIDI.dropFirst(parts.count)).prefix(Self.partCount))
        let programTables = UnsafeMutableBufferPointer<ProgramTables>.allocate(capacity: programs.count)
        _ = programTables.initialize(from: programs.map(ProgramTables.init))
        let banks = table.keys.sorted()
        let bankNumbers = UnsafeMutableBufferPointer<Int>.allocate(capacity: banks.count)
        _ = bankNumbers.initialize(from: banks)
        let entries = UnsafeMutableBufferPointer<PartProgram?>.allocate(capacity: banks.count * 128)
        for (b, bank) in banks.enumerated() {
            let row = table[bank] ?? []
            for p in 0..<128 {
                let entry = p < row.count ? row[p] : nil
                if case .sampler(let index)? = entry { precondition(programs.indices.contains(index), "program index out of range") }
                (entries.baseAddress! + b * 128 + p).initialize(to: entry)
            }
        }
        let partSetups = UnsafeMutableBufferPointer<PartSetup>.allocate(capacity: Self.partCount)
        _ = partSetups.initialize(from: self.parts)
        renderTables = RenderTables(programTables: programTables, bankNumbers: bankNumbers, entries: entries, partSetups: partSetups)
    }

    /// One program on every program number, every part starting on it (except `synthChannels`,
    /// 0-based, which start on the synth) and no drum part: the single-program instrument.
    public static func single(_ program: SamplerProgram, name: String = "program", synthChannels: Set<Int> = []) -> ProgramBank {
        let row = [PartProgram?](repeating: .sampler(0), count: 128)
        return ProgramBank(programs: [program], names: [name], table: [0: row],
                           parts: (0..<partCount).map { PartSetup(startOverride: synthChannels.contains($0) ? .synth : nil) })
    }

    deinit {
        renderTables.programTables.deallocate()
        renderTables.bankNumbers.deallocate()
        renderTables.entries.deallocate()
        renderTables.partSetups.deinitialize().deallocate()
    }

    /// Any thread, allocation-free: what program change `program` selects on a part with bank
    /// select `bank` (`RenderTables.lookup`).
    public func lookup(bank: Int, program: Int, isDrum: Bool) -> PartProgram? {
        renderTables.lookup(bank: bank, program: program, isDrum: isDrum)
    }

    /// What part `channel` plays at start (or after a reset to this bank).
    public func startProgram(channel: Int) -> PartProgram { renderTables.startProgram(channel: channel) }

    /// Display name of what a part plays.
    public func name(of program: PartProgram) -> String {
        switch program {
        case .none: "none"
        case .synth: "synth"
        case .sampler(let index): names.indices.contains(index) ? names[index] : "?"
        }
    }

    /// A bank's tables as plain pointers: what the render thread reads (a program change is an
    /// index into them). Render-thread safe; valid while the bank lives.
    struct RenderTables {
        static let percussionBank = 128

        let programTables: UnsafeMutableBufferPointer<ProgramTables>
        let bankNumbers: UnsafeMutableBufferPointer<Int>
        /// `bankNumbers.count` × 128 entries, bank after bank.
        let entries: UnsafeMutableBufferPointer<PartProgram?>
        let partSetups: UnsafeMutableBufferPointer<PartSetup>

        /// What program change `program` selects on a part with bank select `bank` (drum parts
        /// use bank 128 whatever was selected, when the bank defines it). A melodic bank without
        /// that program falls back to bank 0 (the GS "capital tone" rule); a drum kit number
        /// without an entry falls back to kit 0. nil: not defined anywhere.
        @_noAllocation
        func lookup(bank: Int, program: Int, isDrum: Bool) -> PartProgram? {
            guard program >= 0 && program < 128 else { return nil }
            if isDrum, let row = row(of: Self.percussionBank) {
                return entries[row + program] ?? entries[row]
            }
            if bank != 0, bank != Self.percussionBank, let row = row(of: bank), let entry = entries[row + program] {
                return entry
            }
            guard let row = row(of: 0) else { return nil }
            return entries[row + program]
        }

        /// What part `channel` plays at start (or after a reset to this bank).
        @_noAllocation
        func startProgram(channel: Int) -> PartProgram {
            let setup = partSetups[channel & 15]
            return setup.startOverride ?? lookup(bank: 0, program: setup.program, isDrum: setup.isDrum) ?? .none
        }

        @_noAllocation
        private func row(of bank: Int) -> Int? {
            for i in 0..<bankNumbers.count where bankNumbers[i] == bank { return i * 128 }
            return nil
        }
    }
}
