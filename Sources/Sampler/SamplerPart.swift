import DSP
import MIDI

/// One MIDI channel of the sampler: its program, its controllers and the raw values the voice
/// filters read. Render thread only; lives in the instrument's preallocated part array.
struct SamplerPart {
    var controllers = ChannelControllerState()
    var gains: ChannelGains
    /// CC91/CC93 send levels, smoothed.
    var sends: ChannelSends
    /// Last value of each controller 0…127 (read by filter modulation); 128 bytes of the
    /// instrument's preallocated block.
    let controllerValues: UnsafeMutablePointer<UInt8>
    var programNumber = 0
    var isDrum = false
    /// Bumped on every controller, bend or pressure change: SoundFont voices re-evaluate their
    /// modulators when theirs is older (`SF2ChannelContext.modulationEpoch`).
    var modulationEpoch: UInt32 = 0
    var channelPressure: UInt8 = 0
    var program: PartProgram = .none
    /// Tables of `program` when it is `.sampler` (valid while the bank is retained).
    var tables: ProgramTables?

    init(sampleRate: Double, controllerValues: UnsafeMutablePointer<UInt8>) {
        gains = ChannelGains(sampleRate: sampleRate)
        sends = ChannelSends(sampleRate: sampleRate)
        self.controllerValues = controllerValues
        resetControllerValues()
    }

    /// Sound controllers 71–79 (brightness, resonance…) start centred, as GM devices assume;
    /// volume at 100, expression at full and pan centred, matching `controllers`.
    func resetControllerValues() {
        controllerValues.update(repeating: 0, count: 128)
        for controller in 71...79 { controllerValues[controller] = 64 }
        controllerValues[Int(MIDIController.volume)] = ChannelControllerState.defaultVolume
        controllerValues[Int(MIDIController.reverbSend)] = ChannelControllerState.defaultReverbSend
        controllerValues[Int(MIDIController.expression)] = 127
        controllerValues[Int(MIDIController.pan)] = 64
    }

    /// Every controller back to its power-on value (a GM/GS/XG reset): the values move on from
    /// here with their usual ramps, under the voices fading out.
    mutating func resetControllers() {
        controllers = ChannelControllerState()
        resetControllerValues()
        channelPressure = 0
        modulationEpoch &+= 1
        gains.setVolume(Int(controllers.volume))
        gains.setExpression(Int(controllers.expression))
        gains.setPan(Int(controllers.pan))
        sends.follow(reverbController: controllers.reverbSend, chorusController: controllers.chorusSend, snap: false)
    }

    /// Selects `program` of the bank (render thread: an index, nothing allocated), stamping the
    /// selection in the program with `stamp` so that the loading side prepares it (`ProgramCell`).
    mutating func select(_ program: PartProgram, bank: ProgramBank.RenderTables?, stamp: UInt64) {
        self.program = program
        if case .sampler(let index) = program, let bank {
            tables = bank.programTables[index]
            bank.programTables[index].cell.pointee.selected.store(stamp, ordering: .relaxed)
        } else {
            tables = nil
        }
    }

    /// Bend range override from RPN 0, in cents; NaN when the sender set none (layers' own apply).
    var bendRangeOverrideCents: Double {
        controllers.bendRangeSemitones.map { 100 * $0 } ?? .nan
    }
}
