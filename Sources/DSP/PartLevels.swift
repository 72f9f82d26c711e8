/// The level state of one part (MIDI channel) of an instrument, its smoothed gains and sends, as
/// the synth and the sampler both update it: the step they end a controller change with is written
/// once here.
public enum PartLevels {
    /// After a controller change: a silent part jumps to its new gains (a ramp would otherwise
    /// wait for, and colour, the next note), and a CC91/CC93 change (`sendChanged`) moves the
    /// sends to the part's controller values, jumping there too when silent.
    @_noAllocation
    public static func settle(
        gains: inout ChannelGains, sends: inout ChannelSends, silent: Bool, sendChanged: Bool, reverbController: UInt8, chorusController: UInt8
    ) {
        if silent { gains.snap() }
        if sendChanged { sends.follow(reverbController: reverbController, chorusController: chorusController, snap: silent) }
    }
}
