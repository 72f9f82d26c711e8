import AudioTestSupport
import DSP
import Foundation
import MIDI
import Sampler
import SamplerLevels
import Synchronization
import Testing

/// Deferred waveforms (`SamplerWaveform(source:)`, a SoundFont's samples under `play`): a region
/// holds no frames until the loading side reads and publishes them. A note on it before then
/// waits (the render thread never does) and starts at the first block after they are published,
/// or, not prepared within the wait, is silent and counted; once prepared it plays exactly as the loaded waveform;
/// withdrawn frames stay with the voice reading them and are freed after it; the live builder
/// prepares what parts select and strike, within the sample budget, withdrawing the least
/// recently used; a source that cannot be read gives one log line and silence.
@Suite struct DeferredSampleTests {
    /// A 16-bit sample held in memory, read as a deferred waveform's source (its reads counted),
    /// or failing every read with `failure`.
    final class MemorySource: SampleSource {
        let points: [Int16]
        let failure: String?
        let reads = Atomic<Int>(0)

        init(points: [Int16] = DeferredSampleTests.points, failure: String? = nil) {
            self.points = points
            self.failure = failure
        }

        func read(channel: Int, frames: Range<Int>, into destination: UnsafeMutableRawPointer) throws(SampleReadError) {
            reads.add(1, ordering: .relaxed)
            if let failure { throw SampleReadError(failure) }
            points[frames].withUnsafeBytes { destination.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        }

        var readCount: Int { reads.load(ordering: .relaxed) }
    }

    /// Lines a publisher logs, from whichever thread publishes (under a `ControlLocked`, which
    /// ThreadSanitizer follows).
    final class Log: Sendable {
        let lines = ControlLocked<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func add(_ line: String) { lines.withLock { $0.append(line) } }
    }

    /// 12000 frames of deterministic 16-bit noise at 44.1 kHz, looped over its second half.
    static let points: [Int16] = congruentialNoise(count: 12_000, seed: 2_468).map { Int16(truncatingIfNeeded: $0 >> 18) }
    static let loop = SamplerLoop(startFrame: 6_000, endFrame: 12_000)
    /// How long a note waits for its frames (`SamplerConstants.unpreparedNoteWaitSeconds`), frames.
    static let waitFrames = Int(SamplerConstants.unpreparedNoteWaitSeconds * soundFontTestRate)

    func deferred(_ source: MemorySource) throws -> SamplerWaveform {
        try SamplerWaveform(source: source, channelCount: 1, frameCount: source.points.count, sampleRate: soundFontTestRate, bytesPerFrame: 2)
    }

    /// One looped SoundFont zone over `keys` playing `waveform`.
    func program(_ waveforms: [(SamplerWaveform, ClosedRange<Int>)]) throws -> SamplerProgram {
        try soundFontProgram(waveforms.map { soundFontZone($0.0, keys: $0.1, rootKey: 60, loop: Self.loop) })
    }

    func program(_ waveform: SamplerWaveform) throws -> SamplerProgram { try program([(waveform, 0...127)]) }

    /// A store with room for everything (or `sampleBytes` of frames, `levelBytes` of levels).
    func store(sampleBytes: Int = 1 << 30, levelBytes: Int = 1 << 30) -> LevelStore {
        LevelStore(budget: LevelBudget(limitBytes: levelBytes), sampleBudget: LevelBudget(limitBytes: sampleBytes))
    }

    /// Reads and publishes the frames of every unprepared region of `program` from `store`.
    func prepare(_ program: SamplerProgram, from store: LevelStore) {
        for request in program.levelRequests where request.kind == .plain {
            if case .frames(let frames) = store.frames(for: request) { program.publishFrames(frames, for: request) }
        }
    }

    /// A held note of `key` and its release, both channels.
    func note(_ program: SamplerProgram, key: Int = 64) -> [Float] {
        let out = render(soundFontInstrument(program), frames: 8_000, events: [At(1, noteOn(key, 100)), At(5_000, noteOff(key))])
        return out.left + out.right
    }

    @Test func aNoteOnAnUnpreparedRegionIsSilentAndCountedAndOncePreparedPlaysAsTheLoadedWaveform() throws {
        let store = store(), source = MemorySource()
        let program = try program(try deferred(source))
        let loaded = try self.program(try SamplerWaveform(pcm16: [Self.points], sampleRate: soundFontTestRate))
        #expect(program.regionsUnprepared == 1)
        let silent = note(program)
        #expect(silent.allSatisfy { $0 == 0 }, "an unprepared region sounds nothing")
        #expect(program.silentNotes == 1 && source.readCount == 0, "counted, and nothing read on the render thread")
        // The strike reported it: what it asks for is its frames.
        let struck = program.struckLevelRequests
        try #require(struck.count == 1 && struck[0].kind == .plain)
        prepare(program, from: store)
        #expect(program.regionsUnprepared == 0 && source.readCount == 1)
        #expect(store.sampleBudget.usedBytes == RegionFrames.byteCount(for: struck[0]))
        let expected = note(loaded)
        #expect(expected.contains { abs($0) > 0.01 })
        #expect(note(program) == expected, "plain: sample for sample the loaded waveform's")
        #expect(program.silentNotes == 1)
        // Band-limited: levels built from the frames read are the loaded waveform's levels.
        program.buildAllLevels(store: store)
        loaded.buildAllLevels(store: store)
        #expect(program.regionsAwaitingLevels == 0)
        #expect(note(program, key: 76) == note(loaded, key: 76))
        // A second program of the same waveform shares the frames read: no second read.
        let other = try self.program(program.zones[0].waveform)
        prepare(other, from: store)
        #expect(other.regionsUnprepared == 0 && source.readCount == 1)
    }

    /// A note struck before its region's frames are read waits for them: it starts at the first
    /// block after they are published, sample for sample the loaded waveform's note started there
    /// (also when its note-off came while it waited: it then plays its release at once). Not
    /// prepared within the wait, or its part on another program meanwhile, it is given up: silent
    /// and counted. All sound off forgets it uncounted.
    @Test func aNoteStruckBeforeItsFramesAreReadStartsWhenTheyArriveWithinTheWait() throws {
        let loaded = try program(try SamplerWaveform(pcm16: [Self.points], sampleRate: soundFontTestRate))
        func late(_ events: [At], preparedAfter frames: Int) throws -> (before: Rendered, after: Rendered, program: SamplerProgram) {
            let program = try program(try deferred(MemorySource()))
            let sampler = soundFontInstrument(program)
            let before = render(sampler, frames: frames, events: events)
            prepare(program, from: store())
            return (before, render(sampler, frames: 6_000), program)
        }
        let held = try late([At(1, noteOn(64, 100))], preparedAfter: 1_000)
        let heldFromStart = render(soundFontInstrument(loaded), frames: 6_000, events: [At(0, noteOn(64, 100))])
        #expect(held.before.left.allSatisfy { $0 == 0 }, "nothing before its frames")
        #expect(heldFromStart.left.contains { abs($0) > 0.01 })
        #expect(held.after.left == heldFromStart.left && held.after.right == heldFromStart.right, "started at the block after they came")
        #expect(held.program.silentNotes == 0)

        let released = try late([At(1, noteOn(64, 100)), At(500, noteOff(64))], preparedAfter: 1_000)
        let releasedFromStart = render(soundFontInstrument(loaded), frames: 6_000, events: [At(0, noteOn(64, 100)), At(0, noteOff(64))])
        #expect(releasedFromStart.left.contains { abs($0) > 0.01 })
        #expect(released.after.left == releasedFromStart.left, "its release at once")
        #expect(released.program.silentNotes == 0)

        let tooLate = try late([At(1, noteOn(64, 100))], preparedAfter: Self.waitFrames + 600)
        #expect(tooLate.after.left.allSatisfy { $0 == 0 } && tooLate.program.silentNotes == 1, "given up after the wait")

        let cancelled = try late([At(1, noteOn(64, 100)), At(200, .controlChange(channel: 0, controller: 120, value: 0))], preparedAfter: 1_000)
        #expect(cancelled.after.left.allSatisfy { $0 == 0 } && cancelled.program.silentNotes == 0, "all sound off: forgotten")

        // A program change while it waits: it would start on a program the part no longer plays.
        let programs = [try program(try deferred(MemorySource())), try program(try deferred(MemorySource()))]
        let bank = ProgramBank(programs: programs, names: ["a", "b"], table: [0: [.sampler(0), .sampler(1)]])
        let sampler = SamplerInstrument(sampleRate: soundFontTestRate, maxFrames: 512)
        sampler.submit(bank)
        _ = render(sampler, frames: 1_000, events: [At(1, noteOn(64, 100)), At(300, .programChange(channel: 0, program: 1))])
        prepare(programs[0], from: store())
        let other = render(sampler, frames: 2_000)
        #expect(other.left.allSatisfy { $0 == 0 } && programs[0].silentNotes == 1)
    }

    /// The render thread's side of withdrawal: frames withdrawn while a voice reads them stay
    /// until it ends (the voice plays on unchanged), the next note on the region is silent, and
    /// their memory goes with the voice.
    @Test func withdrawnFramesStayWithTheirVoiceAndAreFreedAfterIt() throws {
        let store = store(), source = MemorySource()
        let program = try program(try deferred(source))
        prepare(program, from: store)
        let bytes = store.sampleBudget.usedBytes
        let reference = render(soundFontInstrument(program), frames: 12_000, events: [At(1, noteOn(64, 100)), At(6_000, noteOff(64))])
        let sampler = soundFontInstrument(program)
        let first = render(sampler, frames: 3_000, events: [At(1, noteOn(64, 100))])
        #expect(program.withdrawFrames(region: 0))
        #expect(program.reclaimWithdrawnLevels() == 1, "a voice still reads the frames")
        #expect(store.sampleBudget.usedBytes == bytes && program.regionsUnprepared == 1)
        // Key 67 finds the region unprepared: silent, counted; key 64 plays on.
        let rest = render(sampler, frames: 9_000, events: [At(1_000, noteOn(67, 100)), At(3_000, noteOff(64)), At(4_000, noteOff(67))])
        #expect(first.left + rest.left == reference.left && first.right + rest.right == reference.right)
        #expect(program.silentNotes == 1)
        _ = render(sampler, frames: 48_000)
        #expect(sampler.isSilent)
        #expect(program.reclaimWithdrawnLevels() == 0)
        #expect(store.sampleBudget.usedBytes == 0, "freed once its voice ended")
        #expect(program.levelRequests.first?.kind == .plain, "the region may be prepared again")
    }

    /// A note whose two zones (a stereo pair's halves, or layers) stay silent is one silent note,
    /// given up at once (no wait) or after the wait; two such notes are two.
    @Test func aNoteIsCountedSilentOnceHoweverManyOfItsZonesAre() throws {
        func layered() throws -> SamplerProgram {
            try program([(try deferred(MemorySource()), 0...127), (try deferred(MemorySource()), 0...127)])
        }
        let waited = try layered()
        _ = render(soundFontInstrument(waited), frames: Self.waitFrames + 1_000, events: [At(1, noteOn(64, 100))])
        #expect(waited.silentNotes == 1, "given up after the wait")
        let atOnce = try layered()
        let sampler = SamplerInstrument(sampleRate: soundFontTestRate, maxFrames: 512, unpreparedNoteWaitSeconds: 0)
        sampler.submit(atOnce)
        _ = render(sampler, frames: 1_000, events: [At(1, noteOn(64, 100)), At(2, noteOn(67, 100))])
        #expect(atOnce.silentNotes == 2, "given up at once")
    }

    /// Two programs on programs 0 and 1 of channel 0 with their own samples (one region each, or
    /// two split at key 64), an instrument playing them, and a store with `sampleBytes` for frames
    /// and none for levels (a region with levels needs no frames to sound: these tests watch frames).
    func liveRig(sampleBytes: Int = 1 << 30, zones: Int = 1) throws -> (programs: [SamplerProgram], sampler: SamplerInstrument, store: LevelStore, bank: ProgramBank) {
        func twoKeyRanges() throws -> SamplerProgram {
            let ranges: [ClosedRange<Int>] = zones == 1 ? [0...127] : [0...63, 64...127]
            return try program(try ranges.map { (try deferred(MemorySource()), $0) })
        }
        let programs = [try twoKeyRanges(), try twoKeyRanges()]
        let bank = ProgramBank(programs: programs, names: ["a", "b"], table: [0: [.sampler(0), .sampler(1)]])
        // Notes do not wait for their frames here: the publisher thread's timing must not decide what these tests hear.
        let sampler = SamplerInstrument(sampleRate: soundFontTestRate, maxFrames: 512, unpreparedNoteWaitSeconds: 0)
        sampler.submit(bank)
        return (programs, sampler, store(sampleBytes: sampleBytes, levelBytes: 0), bank)
    }

    @Test func thePublisherReadsTheStartProgramsFirstAndASelectedProgramAtOnce() async throws {
        let (programs, sampler, store, bank) = try liveRig()
        let publisher = LevelPublisher.start(bank, store: store, pollMilliseconds: 1, prefetch: false)
        defer { publisher.stop() }
        #expect(publisher.startPreparation.prepared == 1 && publisher.startPreparation.unprepared == 0)
        #expect(programs[0].regionsUnprepared == 0 && programs[1].regionsUnprepared == 1, "the start program, before start returned")
        let start = render(sampler, frames: 2_000, events: [At(0, noteOn(64, 100))])
        #expect(Measure.peak(start.left) > 0.01 && programs[0].silentNotes == 0)
        // A program change alone: the builder reads the program it selects.
        _ = render(sampler, frames: 512, events: [At(0, .programChange(channel: 0, program: 1))])
        try await waitFor { programs[1].regionsUnprepared == 0 }
        let selected = render(sampler, frames: 2_000, events: [At(0, noteOn(60, 100))])
        #expect(Measure.peak(selected.left) > 0.01 && programs[1].silentNotes == 0)
    }

    /// With room for one region's frames, a program whose second region does not fit beside the
    /// first: its note is silent and counted, the strike makes the builder withdraw the region used
    /// least recently (the first, only selected) and read the struck one, whose next note sounds.
    @Test func aStruckRegionIsReadForTheNextNoteInPlaceOfTheLeastRecentlyUsed() async throws {
        let oneRegion = RegionFrames.byteCount(for: try #require(try program(try deferred(MemorySource())).levelRequests.first))
        let log = Log()
        let (programs, sampler, store, bank) = try liveRig(sampleBytes: oneRegion + oneRegion / 2, zones: 2)
        let publisher = LevelPublisher.start(bank, store: store, pollMilliseconds: 1, prefetch: false) { _ in } log: { log.add($0) }
        defer { publisher.stop() }
        #expect(publisher.startPreparation.prepared == 1 && publisher.startPreparation.unprepared == 1)
        let low = render(sampler, frames: 2_000, events: [At(0, noteOn(60, 100)), At(1_000, noteOff(60))])
        #expect(Measure.peak(low.left) > 0.01)
        let high = render(sampler, frames: 2_000, events: [At(0, noteOn(70, 100)), At(1_000, noteOff(70))])
        #expect(Measure.peak(high.left) == 0 && programs[0].silentNotes == 1)
        // The struck region waits for the key-60 voice (still releasing) to let go of the region it evicts.
        // Asked of region 1 alone: a look at region 0's frames would hold them, and delay their memory's return, for a moment.
        try await waitFor(rendering: sampler) { programs[0].levelRequest(region: 1).map { $0.kind != .plain } ?? true }
        #expect(programs[0].publishedFrames.map(\.region) == [1])
        let again = render(sampler, frames: 2_000, events: [At(0, noteOn(70, 100))])
        #expect(Measure.peak(again.left) > 0.01 && programs[0].silentNotes == 1)
        #expect(store.sampleBudget.usedBytes <= store.sampleBudget.limitBytes)
        #expect(log.all.allSatisfy { $0.hasPrefix("band-limited levels") }, "nothing said of frames: \(log.all)")
    }

    @Test func anUnreadableSourceGivesOneLineAndSilence() throws {
        let log = Log(), source = MemorySource(failure: "font.sf2: sdta/smpl at byte 46: sample 0 'Ramp': the file ends at byte 46")
        let waveform = try deferred(source)
        let programs = [try program(waveform), try program(waveform)]
        let bank = ProgramBank(programs: programs, names: ["a", "b"], table: [0: [.sampler(0), .sampler(1)]])
        let publisher = LevelPublisher.start(bank, store: store(), pollMilliseconds: 1, prefetch: false) { _ in } log: { log.add($0) }
        defer { publisher.stop() }
        #expect(publisher.startPreparation.unprepared == 1 && programs[0].levelRequests.isEmpty, "abandoned, not asked for again")
        #expect(log.all == ["sample data: font.sf2: sdta/smpl at byte 46: sample 0 'Ramp': the file ends at byte 46: its notes are silent"])
        let sampler = SamplerInstrument(sampleRate: soundFontTestRate, maxFrames: 512)
        sampler.submit(bank)
        // Past the notes' wait: both given up.
        let out = render(sampler, frames: Self.waitFrames + 1_600, events: [At(0, noteOn(64, 100)), At(100, .programChange(channel: 0, program: 1)), At(200, noteOn(65, 100))])
        #expect(out.left.allSatisfy { $0 == 0 } && programs[0].silentNotes == 1 && programs[1].silentNotes == 1)
        // The other program's region of the same waveform fails at once, without a second line or read.
        let deadline = Date().addingTimeInterval(30)
        while !programs[1].levelRequests.isEmpty, Date() < deadline { usleep(2_000) }
        #expect(programs[1].levelRequests.isEmpty && source.readCount == 1 && log.all.count == 1)
    }

    /// Notes struck on this thread while the publisher's thread reads, publishes, withdraws and
    /// frees frames under a budget with room for one program's (run by scripts/tsan-live under
    /// ThreadSanitizer): the note-on's acquire and silent count against the builder's stores and
    /// frees. Every block stays finite; frames were withdrawn meanwhile.
    @Test func notesStruckWhileFramesAreReadAndWithdrawn() throws {
        let oneRegion = RegionFrames.byteCount(for: try #require(try program(try deferred(MemorySource())).levelRequests.first))
        let (programs, sampler, store, bank) = try liveRig(sampleBytes: oneRegion + oneRegion / 2)
        let publisher = LevelPublisher.start(bank, store: store, pollMilliseconds: 1, prefetch: false)
        defer { publisher.stop() }
        var withdrawals = 0, wasPrepared = (true, false)
        for block in 0..<400 {
            let out = render(sampler, frames: 1_024, events: [
                At(0, .programChange(channel: 0, program: UInt8(block / 8 % 2))), At(0, noteOn(60, 100)), At(768, noteOff(60)),
            ])
            #expect(out.left.allSatisfy { $0.isFinite }, "block \(block)")
            let now = (programs[0].regionsUnprepared == 0, programs[1].regionsUnprepared == 0)
            if (wasPrepared.0 && !now.0) || (wasPrepared.1 && !now.1) { withdrawals += 1 }
            wasPrepared = now
            usleep(500)
        }
        #expect(withdrawals > 0, "frames were withdrawn while notes were struck")
        #expect(store.sampleBudget.usedBytes <= store.sampleBudget.limitBytes)
    }

    /// Polls `condition` for up to 30 s, rendering a block of `sampler` between polls (voices end, and let go of withdrawn forms, only as it renders).
    func waitFor(rendering sampler: SamplerInstrument? = nil, _ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(30)
        while !condition(), Date() < deadline {
            if let sampler { _ = render(sampler, frames: 256) }
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        #expect(condition())
    }
}
