import AudioTestSupport
import DSP
import Foundation
import MIDI
import Sampler
import SamplerLevels
import Testing

/// Levels built ahead by a thread with nothing else to do (`LevelPrefetch`: an offline render's
/// helpers between spans) are published at their block as if built there: charged to the budget
/// only then, and sounding the same to the sample.
@Suite struct LevelPrefetchTests {
    let second = 48_000
    let fixture = LevelScheduleTests()

    /// Runs a song of one note on each of `count` programs (1 s looped sines, one region each)
    /// through a schedule, one message per 1 s block; `ahead` builds what the schedule offers
    /// after each `prepare` (nil: nothing is built ahead). Returns the regions' worth of levels
    /// charged after each `prepare`, the regions published, and the last program's note.
    func run(programs count: Int, prefetchBytes: Int, ahead: ((LevelPrefetch) -> Void)?) throws -> (used: [Int], published: Int, sound: Rendered) {
        let programs = try (0..<count).map { try fixture.program(Double(1_000 + 500 * $0)) }
        let bank = ProgramBank(programs: programs, names: programs.indices.map { "p\($0)" }, table: [0: programs.indices.map { .sampler($0) }])
        let song: [MIDIMessage] = programs.indices.flatMap { [.programChange(channel: 0, program: UInt8($0)), noteOn(60)] }
        let store = LevelStore(budget: LevelBudget(limitBytes: 1 << 30))
        let schedule = LevelSchedule(
            plan: LevelBuildPlan(bank: bank, messages: song), bank: bank, store: store, sampleRate: Double(second), frame: { $0 * second },
            gapFrames: 1_000 * second, prefetchBytes: prefetchBytes)
        var used: [Int] = []
        for end in 1...song.count {
            schedule.prepare(before: end)
            used.append(store.budget.usedBytes / fixture.oneRegion)
            if let prefetch = schedule.prefetch { ahead?(prefetch) }
            #expect(store.budget.usedBytes == used.last! * fixture.oneRegion, "built ahead, not charged")
            schedule.release(before: end)
        }
        let sound = render(instrument(playing: programs[count - 1], levels: .byNeed), frames: 4_800, events: [At(0, noteOn(60))])
        return (used, schedule.report.published, sound)
    }

    /// Built ahead on the calling thread, as far as the capacity (one region) holds: each use is
    /// offered once the one before it was taken.
    @Test func levelsBuiltAheadArePublishedAtTheirBlockAsIfBuiltThere() throws {
        var builtAhead = 0
        let ahead = try run(programs: 3, prefetchBytes: fixture.oneRegion) { prefetch in
            while prefetch.buildOne() { builtAhead += 1 }
        }
        let inPlace = try run(programs: 3, prefetchBytes: 0, ahead: nil)
        #expect(builtAhead == 3, "each program's levels, one at a time")
        #expect(ahead.used == [0, 1, 0, 1, 0, 1] && inPlace.used == ahead.used, "each note's levels alone, withdrawn after its block")
        #expect(ahead.published == 3 && inPlace.published == 3)
        #expect(Measure.decibels(Measure.rms(ahead.sound.left)) > -20, "the note sounds")
        #expect(ahead.sound.left == inPlace.sound.left && ahead.sound.right == inPlace.sound.right)
    }

    /// Built on another thread while the schedule publishes (under ThreadSanitizer in
    /// scripts/tsan-live): whichever is first, the schedule takes what is built, waits for what is
    /// being built, builds the rest itself; the same levels are published.
    @Test func levelsBuiltAheadOnAnotherThreadAreTheSame() throws {
        let builder = Builder()
        let ahead = try run(programs: 8, prefetchBytes: 3 * fixture.oneRegion) { prefetch in builder.start(prefetch) }
        builder.stop()
        let inPlace = try run(programs: 8, prefetchBytes: 0, ahead: nil)
        #expect(ahead.used == inPlace.used && ahead.published == 8)
        #expect(ahead.sound.left == inPlace.sound.left && ahead.sound.right == inPlace.sound.right)
    }

    /// One thread building ahead until stopped, as a render's helper does between spans. Its state
    /// under a `ControlLocked`, which ThreadSanitizer follows (it does not follow `Mutex` here).
    final class Builder: Sendable {
        private let state = ControlLocked<(started: Bool, stopping: Bool)>((false, false))
        private let exited = DispatchSemaphore(value: 0)

        func start(_ prefetch: LevelPrefetch) {
            guard state.withLock({ state in defer { state.started = true }; return !state.started }) else { return }
            Thread.detachNewThread { [self] in
                while !state.withLock({ $0.stopping }) { _ = prefetch.buildOne() }
                exited.signal()
            }
        }

        func stop() {
            let started = state.withLock { state in
                state.stopping = true
                return state.started
            }
            if started { exited.wait() }
        }
    }
}
