import MIDI

/// `demo.mid`: a type-1 song of 12 bars, 120 BPM slowing to 110 BPM for the last two bars (≈ 24.4 s).
/// Tracks: "lead" (channel index 0, the sampler) with pitch bends, "pads" (channel index 1, the sine
/// synth) with sustain pedal, and "control" (channel index 15) that starts the beat (CC 102) and guitar
/// (CC 103) loops at time 0 and stops them at the end.
enum DemoSong {
    static let ticksPerQuarter = 480
    static let bar = 4 * 480
    static let bars = 12
    static let leadChannel: UInt8 = 0
    static let padChannel: UInt8 = 1
    static let controlChannel: UInt8 = 15
    static let beatLoopController: UInt8 = 102
    static let guitarLoopController: UInt8 = 103

    static func tracks() -> [MIDIFileWriter.Track] {
        [MIDIFileWriter.Track(name: "lead", events: lead()), MIDIFileWriter.Track(name: "pads", events: pads()),
         MIDIFileWriter.Track(name: "control", events: control())]
    }

    static let tempoChanges = [
        MIDIFileWriter.TempoChange(tick: 0, beatsPerMinute: 120),
        MIDIFileWriter.TempoChange(tick: 10 * bar, beatsPerMinute: 110),
    ]

    /// Am – F – C – G, three times; pedal down after each chord starts, up just before the next.
    static func pads() -> [MIDIFileWriter.TimedEvent] {
        let voicings: [[UInt8]] = [[57, 60, 64, 69], [53, 57, 60, 65], [55, 60, 64, 67], [55, 59, 62, 67]]
        var events: [MIDIFileWriter.TimedEvent] = []
        for barIndex in 0..<bars {
            let start = barIndex * bar
            let chord = voicings[barIndex % voicings.count]
            events += chord.map { .init(tick: start, message: .noteOn(channel: padChannel, note: $0, velocity: 70)) }
            events.append(.init(tick: start + 60, message: .controlChange(channel: padChannel, controller: MIDIController.sustainPedal, value: 127)))
            // Keys released mid-bar ring on under the pedal until it lifts.
            events += chord.map { .init(tick: start + bar / 2, message: .noteOff(channel: padChannel, note: $0, velocity: 64)) }
            events.append(.init(tick: start + bar - 30, message: .controlChange(channel: padChannel, controller: MIDIController.sustainPedal, value: 0)))
        }
        return events
    }

    /// A pentatonic melody from bar 2 on: (bar, eighth within bar, length in eighths, note).
    static let melody: [(bar: Int, eighth: Int, length: Int, note: UInt8)] = [
        (2, 0, 2, 69), (2, 2, 2, 72), (2, 4, 3, 76), (2, 7, 1, 74),
        (3, 0, 4, 72), (3, 4, 4, 69),
        (4, 0, 2, 67), (4, 2, 2, 69), (4, 4, 2, 72), (4, 6, 2, 74),
        (5, 0, 6, 76),
        (6, 0, 2, 81), (6, 2, 2, 79), (6, 4, 2, 76), (6, 6, 2, 74),
        (7, 0, 3, 72), (7, 3, 1, 74), (7, 4, 4, 76),
        (8, 0, 2, 69), (8, 2, 2, 72), (8, 4, 4, 74),
        (9, 0, 8, 71),
        (10, 0, 2, 72), (10, 2, 2, 76), (10, 4, 4, 79),
        (11, 0, 8, 81),
    ]

    /// Melody notes; long notes bend up a semitone and back (4095 is half of the default ±2-semitone range).
    static func lead() -> [MIDIFileWriter.TimedEvent] {
        var events: [MIDIFileWriter.TimedEvent] = []
        for note in melody {
            let start = note.bar * bar + note.eighth * 240
            let end = start + note.length * 240 - 20
            events.append(.init(tick: start, message: .noteOn(channel: leadChannel, note: note.note, velocity: 96)))
            if note.length >= 6 {
                for step in 0...8 {  // bend up over a quarter, hold, return before the note ends
                    let value = Int16(8191 * step / 8 / 2)
                    events.append(.init(tick: start + 480 + step * 30, message: .pitchBend(channel: leadChannel, value: value)))
                    events.append(.init(tick: end - 240 + step * 20, message: .pitchBend(channel: leadChannel, value: Int16(4095) - value)))
                }
            }
            events.append(.init(tick: end, message: .noteOff(channel: leadChannel, note: note.note, velocity: 64)))
        }
        return events  // MIDIFileWriter orders by tick, keeping this order at equal ticks
    }

    static func control() -> [MIDIFileWriter.TimedEvent] {
        let end = bars * bar
        return [
            .init(tick: 0, message: .controlChange(channel: controlChannel, controller: beatLoopController, value: 127)),
            .init(tick: 0, message: .controlChange(channel: controlChannel, controller: guitarLoopController, value: 127)),
            .init(tick: end, message: .controlChange(channel: controlChannel, controller: beatLoopController, value: 0)),
            .init(tick: end, message: .controlChange(channel: controlChannel, controller: guitarLoopController, value: 0)),
        ]
    }
}
