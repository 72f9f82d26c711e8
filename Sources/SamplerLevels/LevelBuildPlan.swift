import DSP
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
    /// Per program index: the largest upward shift beyond its keys that the song's own pitch
    /// messages ask on the channels striking it, semitones (`ChannelPitchReach`), plus
    /// `tuningHeadroomSemitones`. For `SamplerGlobals.knownPitchShiftSemitones`: a part that never
    /// bends, tunes or asks for vibrato gets no margin, so its regions played at their root need
    /// the first level only.
    public private(set) var pitchShiftSemitones: [Int: Double] = [:]
    /// Program indices whose notes all sound at their keys' own pitch: struck only on channels that
    /// never bend, tune or ask for vibrato, with no tuning headroom. For `SamplerZone.playsAtRootPitch`.
    public private(set) var steadyPitch: Set<Int> = []

    /// Control thread: follows `messages` (in song order) through `bank`'s program table.
    /// `tuningHeadroomSemitones`: how far above A4 = 440 Hz the player's tuning can be. An array,
    /// not any sequence: iterating a generic one from another module looked up its type's
    /// metadata at every message (5 ms of a render's start on a 10 000-message song).
    public init(bank: ProgramBank, messages: [MIDIMessage], tuningHeadroomSemitones: Double = 0) {
        var controllers = [ChannelControllerState](repeating: ChannelControllerState(), count: ProgramBank.partCount)
        var reach = [ChannelPitchReach](repeating: ChannelPitchReach(), count: ProgramBank.partCount)
        var strikers: [Int: Set<Int>] = [:]
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
                    strikers[index, default: []].insert(channel)
                    strikes[index, default: [:]][Int(note), default: []].append(position)
                }
            case .controlChange(_, let controller, let value):
                _ = controllers[channel].apply(controller: controller, value: value)
                let state = controllers[channel]
                if (state.bendRangeSemitones ?? 2) > 2 { widensBendRange = true }
                reach[channel].include(state, modulation: controller == 1 ? value : 0)
            case .pitchBend(_, let value):
                reach[channel].bendUp = max(reach[channel].bendUp, Double(value) / 8191)
                if value != 0 { reach[channel].bendsAway = true }
            case .channelPressure(_, let pressure):
                if pressure > 0 { reach[channel].pressesForVibrato = true }
            case .programChange(_, let program):
                let selected = bank.lookup(bank: Int(controllers[channel].bankMSB), program: Int(program), isDrum: isDrum[channel])
                if let selected { programs[channel] = selected }
            default:
                break
            }
        }
        for (index, channels) in strikers {
            pitchShiftSemitones[index] = channels.map { reach[$0].semitones }.max()! + tuningHeadroomSemitones
            if tuningHeadroomSemitones == 0 && !channels.contains(where: { reach[$0].movesPitch }) { steadyPitch.insert(index) }
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

/// How far above its keys one channel of a song can sound, from its own messages: its widest
/// upward bend × the widest bend range it sets, its RPN fine and coarse tuning (as the voices apply it), and half a
/// semitone for each vibrato source it moves (mod wheel, channel pressure: 50 cents each through a
/// SoundFont's default modulators). Maxima over the whole song, whatever the order; and whether it
/// moves its pitch at all, down as well as up.
struct ChannelPitchReach {
    var bendUp = 0.0
    var widestBendRange = 2.0
    var tuningUp = 0.0
    var movesModWheel = false
    var pressesForVibrato = false
    /// A bend away from the centre (down as well as up).
    var bendsAway = false
    /// A tuning other than 0 (down as well as up).
    var retunes = false

    /// Whether the channel moves its pitch at all: a bend, a tuning, the mod wheel or channel pressure.
    var movesPitch: Bool { bendsAway || retunes || movesModWheel || pressesForVibrato }

    var semitones: Double {
        bendUp * widestBendRange + tuningUp + (movesModWheel ? 0.5 : 0) + (pressesForVibrato ? 0.5 : 0)
    }

    /// After a control change: the channel's bend range and tuning as `state` now holds them;
    /// `modulation` the mod wheel's new value (0 for other controllers).
    mutating func include(_ state: ChannelControllerState, modulation: UInt8) {
        widestBendRange = max(widestBendRange, state.bendRangeSemitones ?? 2)
        let tuning = MasterTuning.channelSemitones(fineTuningData: state.fineTuningData, coarseTuningData: Int(state.coarseTuningData))
        tuningUp = max(tuningUp, tuning)
        if modulation > 0 { movesModWheel = true }
        if tuning != 0 { retunes = true }
    }
}
