/// The controller state of one MIDI channel as General MIDI defines it: pitch bend with its RPN 0
/// range, RPN 1/2 fine and coarse tuning, mod wheel, volume/expression/pan values, reverb and
/// chorus send levels (CC91/CC93), sustain, sostenuto and soft pedals, bank select and the
/// RPN/data-entry state machine (data entry after an NRPN select changes nothing). Plain value;
/// instruments keep one per channel and act on the `Action` each controller returns (release
/// pedalled notes, silence, …). Render-thread safe.
public struct ChannelControllerState: Sendable, Equatable {
    /// What an instrument must do after a controller message.
    public enum Action: Sendable, Equatable {
        case none
        case volume, expression, pan
        /// The sustain pedal went up: release notes it held.
        case sustainReleased
        /// The sostenuto pedal went down: latch the keys held now.
        case sostenutoPressed
        /// The sostenuto pedal went up: release the latched notes whose keys are up.
        case sostenutoReleased
        case allSoundOff
        /// CC123, and the mode messages CC124–127.
        case allNotesOff
        /// CC121: bend, mod, expression, the pedals and the RPN selection were reset (RP-015;
        /// volume, pan, sends, bank and the bend range kept, as FluidSynth keeps them).
        case resetAllControllers
        /// CC0/CC32 changed the bank the next program change selects from.
        case bankSelect
    }

    /// Pitch-bend position −1…1 (8191 → just under +1).
    public var bend = 0.0
    /// RPN 0 pitch-bend sensitivity in semitones; nil until a sender sets it (the instrument's own
    /// default applies).
    public var bendRangeSemitones: Double?
    /// Mod wheel 0…1.
    public var modWheel = 0.0
    /// CC7 starts at 100, as General MIDI (RP-015) and FluidSynth have it.
    public var volume: UInt8 = ChannelControllerState.defaultVolume
    public var expression: UInt8 = 127
    public var pan: UInt8 = 64
    /// CC91 reverb and CC93 chorus send levels: 40 (GM2, GS and XG; FluidSynth starts at 0, see
    /// docs/GENERAL-MIDI.md) and 0; CC121 keeps them (RP-015).
    public var reverbSend: UInt8 = ChannelControllerState.defaultReverbSend
    public var chorusSend: UInt8 = 0
    public var sustainDown = false
    public var sostenutoDown = false
    /// CC67: notes struck while it is down play at `softPedalGain` (held notes keep their level).
    public var softPedalDown = false
    /// RPN 1 channel fine tuning as its 14-bit data value (centre 8192) and RPN 2 coarse tuning
    /// as its data MSB (centre 64); `MasterTuning` (DSP) turns them into cents and semitones.
    public var fineTuningData = 8192
    public var coarseTuningData: UInt8 = 64
    public var bankMSB: UInt8 = 0
    public var bankLSB: UInt8 = 0
    /// Selected registered parameter (127/127 = null: data entry does nothing).
    var rpnMSB: UInt8 = 127
    var rpnLSB: UInt8 = 127
    /// Non-registered parameter selected: data entry is ignored (we define no NRPNs).
    var nrpnSelected = false

    public static let defaultVolume: UInt8 = 100
    public static let defaultReverbSend: UInt8 = 40

    @_noAllocation
    public init() {}

    /// Applies controller `number` = `value` (7-bit) and says what the instrument must do.
    @_noAllocation
    public mutating func apply(controller number: UInt8, value: UInt8) -> Action {
        switch number {
        case 0: bankMSB = value; return .bankSelect
        case 32: bankLSB = value; return .bankSelect
        case MIDIController.modulationWheel: modWheel = Double(value) / 127; return .none
        case MIDIController.volume: volume = value; return .volume
        case MIDIController.expression: expression = value; return .expression
        case MIDIController.pan: pan = value; return .pan
        case MIDIController.sustainPedal:
            let down = value >= 64
            defer { sustainDown = down }
            return sustainDown && !down ? .sustainReleased : .none
        case MIDIController.sostenutoPedal:
            let down = value >= 64
            defer { sostenutoDown = down }
            if down == sostenutoDown { return .none }
            return down ? .sostenutoPressed : .sostenutoReleased
        case MIDIController.softPedal: softPedalDown = value >= 64; return .none
        case MIDIController.reverbSend: reverbSend = value; return .none
        case MIDIController.chorusSend: chorusSend = value; return .none
        case 101: rpnMSB = value; nrpnSelected = false; return .none
        case 100: rpnLSB = value; nrpnSelected = false; return .none
        case 98, 99: nrpnSelected = true; return .none
        case 6: dataEntry(msb: value); return .none
        case 38: dataEntry(lsb: value); return .none
        case MIDIController.allSoundOff: return .allSoundOff
        case MIDIController.resetAllControllers:
            bend = 0
            modWheel = 0
            expression = 127
            sustainDown = false
            sostenutoDown = false
            softPedalDown = false
            rpnMSB = 127
            rpnLSB = 127
            nrpnSelected = false
            return .resetAllControllers
        case MIDIController.allNotesOff: return .allNotesOff
        case MIDIController.modeMessages: return .allNotesOff  // omni/mono/poly: we only release (MIDI 1.0)
        default: return .none
        }
    }

    /// Pitch-bend message value −8192…8191.
    @_noAllocation
    public mutating func setBend(_ value: Int16) { bend = Double(value) / 8192 }

    /// Level factor of a note struck with the soft pedal down: −6 dB (10^(−6/20), written out so
    /// this module needs no maths library). GM asks only for "soft"; 6 dB is a clear una corda step.
    public static let softPedalGain = 0.501_187_23

    /// Level factor for a note struck now: `softPedalGain` while CC67 is down, else 1.
    public var strikeGain: Double { @_noAllocation get { softPedalDown ? Self.softPedalGain : 1 } }

    /// Data entry for the selected RPN: 0 bend range (MSB semitones, LSB cents), 1 fine tuning
    /// (14-bit, centre 8192 = 0 cents), 2 coarse tuning (MSB, centre 64). An MSB clears the LSB
    /// part; nothing happens after an NRPN select or for any other (or the null) RPN.
    @_noAllocation
    private mutating func dataEntry(msb: UInt8? = nil, lsb: UInt8? = nil) {
        guard !nrpnSelected, rpnMSB == 0 else { return }
        switch rpnLSB {
        case 0: bendRangeEntry(msb: msb, lsb: lsb)
        case 1: fineTuningData = msb.map { Int($0) << 7 } ?? (fineTuningData & ~0x7F) | Int(lsb ?? 0)
        case 2: if let msb { coarseTuningData = msb }
        default: break
        }
    }

    @_noAllocation
    private mutating func bendRangeEntry(msb: UInt8?, lsb: UInt8?) {
        let current = bendRangeSemitones ?? 2
        // Truncation is the floor here (0…127 semitones); `rounded(.down)` is not checkable.
        var semitones = Double(Int(current)), cents = (current - semitones) * 100
        if let msb { semitones = Double(msb); cents = 0 }
        if let lsb { cents = Double(min(lsb, 99)) }
        bendRangeSemitones = semitones + cents / 100
    }
}
