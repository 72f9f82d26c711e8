import ALSAIO
import Synchronization
import Foundation
import LiveLoop
import MIDI

/// Plays a Standard MIDI File into the live instrument in real time (the demo): a thread stamps
/// each event with the wall-clock time it is due and queues it a little ahead, so the audio loop
/// places it on its exact frame like any arriving event. After the last event it lifts the pedals
/// on every channel (`SongEnd`), as `render` does.
///
/// `@unchecked Sendable`: `endNanoseconds` is written by `start()` before the feeding thread starts
/// and only read afterwards.
final class SongFeeder: @unchecked Sendable {
    private let song: MIDIFile
    private let inbox: MIDIInbox
    private let finished = Atomic<Bool>(false)
    private var endNanoseconds: UInt64 = .max
    /// Events are queued this far before they are due.
    static let lookaheadNanoseconds: UInt64 = 50_000_000

    init(path: String, inbox: MIDIInbox) throws {
        song = try MIDIFile.read(path: path)
        self.inbox = inbox
        for warning in song.warnings { inbox.log("\(path): \(warning)") }
    }

    var isFinished: Bool { finished.load(ordering: .relaxed) && MonotonicClock.nanoseconds() > endNanoseconds }

    /// Seconds since the song ended (0 before).
    var secondsSinceEnd: Double {
        guard isFinished else { return 0 }
        return Double(MonotonicClock.nanoseconds() - endNanoseconds) / 1e9
    }

    func start() {
        let origin = MonotonicClock.nanoseconds() + 100_000_000
        endNanoseconds = origin + UInt64(song.durationSeconds * 1e9)
        SmallStackThread.detach { [self] in
            var last = origin
            for event in song.events {
                let due = origin + UInt64(max(0, event.seconds) * 1e9)
                push(event.message, due: due)
                last = due
            }
            if !song.events.isEmpty { for message in SongEnd.messages { push(message, due: last) } }
            finished.store(true, ordering: .relaxed)
        }
    }

    /// Song thread: queues `message` once it is within the look-ahead of `due`.
    private func push(_ message: MIDIMessage, due: UInt64) {
        let now = MonotonicClock.nanoseconds()
        if due > now + Self.lookaheadNanoseconds { usleep(useconds_t((due - now - Self.lookaheadNanoseconds) / 1000)) }
        while !inbox.rings.song.push(StampedMessage(message: message, arrivalNanoseconds: due)) { usleep(1000) }
    }
}
