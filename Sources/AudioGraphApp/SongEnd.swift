import MIDI

/// What a song's end sends after its last event, offline (`OfflineRenderer`) and live
/// (`SongFeeder`): the sustain (CC64) and sostenuto (CC66) pedals lifted on all 16 channels, as
/// FluidSynth's player does, so notes a pedal still holds ring out and the render ends with their
/// release instead of at the tail limit. Notes whose keys are still down are left alone: they
/// are what a song means to hold (the tail limit ends them).
enum SongEnd {
    static let messages: [MIDIMessage] = (0..<16).flatMap { channel in
        [MIDIController.sustainPedal, MIDIController.sostenutoPedal].map { .controlChange(channel: UInt8(channel), controller: $0, value: 0) }
    }

    /// How long `play --midi` waits after the song for the sound to die away before it stops anyway
    /// (fading out), as `render` does at its tail limit.
    static let maxTailSeconds = 30.0
}
