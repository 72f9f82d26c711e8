import ALSAIO
import MIDI

/// `tracker ROUNDS`: feeds a `SourceNoteTracker` chords, pedal and releases ROUNDS times via the
/// non-allocating API; run under a malloc counter with two ROUNDS values to see that the
/// count does not grow with the work.
enum TrackerProbe {
    static func run(_ arguments: [String]) -> Int32 {
        let rounds = Int(arguments.first ?? "") ?? 1000
        var tracker = SourceNoteTracker(maxSources: 8)
        var emitted = 0
        for round in 0..<rounds {
            let source = SequencerAddress(client: UInt8(128 + round % 8), port: 0)
            for note in UInt8(40)..<UInt8(52) { tracker.observe(.noteOn(channel: 1, note: note, velocity: 90), from: source) }
            tracker.observe(.controlChange(channel: 1, controller: 64, value: 127), from: source)
            tracker.observe(.noteOff(channel: 1, note: 41, velocity: 0), from: source)
            tracker.release(source: source) { _ in emitted += 1 }
        }
        say("tracker: \(rounds) rounds, \(emitted) release messages")
        return 0
    }
}
