import MIDI

/// The plan written as the Standard MIDI File both renderers play (1 tick = 64 frames at 44.1 kHz).
public enum MIDIFileWriterBridge {
    public static func write(_ plan: FidelityNotePlan, to path: String) throws {
        try MIDIFileWriter.write(
            path: path, tracks: [plan.track], ticksPerQuarter: FidelityNotePlan.ticksPerQuarter,
            tempoChanges: [.init(tick: 0, beatsPerMinute: FidelityNotePlan.beatsPerMinute)])
    }
}
