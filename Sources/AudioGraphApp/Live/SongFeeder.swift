import ALSAIO
import Synchronization
import Foundation
import LiveLoop
import MIDI

/// Plays a Standard MIDI File into the live instrument in real time (the demo): a thread stamps
/// each event with the wall-clock time it is due and queues it a little ahead, so the audio loop
/// places it on its exact frame like any arriving event.
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
    }

    var isFinished: Bool { finished.load(ordering: .relaxed) && MonotonicClock.nanoseconds() > endNanoseconds }

    func start() {
        let origin = MonotonicClock.nanoseconds() + 100_000_000
        endNanoseconds = origin + UInt64(song.durationSeconds * 1e9)
        Thread.detachNewThread { [self] in
            for event in song.events {
                let due = origin + UInt64(max(0, event.seconds) * 1e9)
                let now = MonotonicClock.nanoseconds()
                if due > now + Self.lookaheadNanoseconds { usleep(useconds_t((due - now - Self.lookaheadNanoseconds) / 1000)) }
                while !inbox.rings.song.push(StampedMessage(message: event.message, arrivalNanoseconds: due)) { usleep(1000) }
            }
            finished.store(true, ordering: .relaxed)
        }
    }
}
