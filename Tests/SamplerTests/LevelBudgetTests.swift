import AudioTestSupport
import Foundation
import MIDI
import Sampler
import SamplerLevels
import Testing

/// Levels under a memory budget: built only as far as it holds them (a region beyond it plays
/// plain, and the report says so in one line), shared between programs that play the same
/// waveform and loop, and, while playing live, built for the regions the render thread reports
/// struck, withdrawing the least recently played ones, whose memory is freed only once no voice
/// reads it.
@Suite struct LevelBudgetTests {
    /// 1 s looped at 48 kHz: with all levels, 13 × (48 000 + 391 + 32) × 4 bytes ≈ 2.5 MB.
    func waveform() throws -> SamplerWaveform {
        let samples = (0..<48_000).map { Float(0.5 * sin(2 * Double.pi * 15_000 * Double($0) / 48_000)) }
        return try SamplerWaveform(channels: [samples], sampleRate: 48_000, naturalLoop: SamplerLoop(startFrame: 24_000, endFrame: 48_000))
    }

    /// One zone at root 60 answering only its root key (reach: level 0 and 1), or the whole keyboard.
    func program(_ waveform: SamplerWaveform, wholeKeyboard: Bool = false) throws -> SamplerProgram {
        var zone = SamplerZone(waveform: waveform, rootKey: 60)
        if !wholeKeyboard {
            zone.minKey = 60
            zone.maxKey = 60
        }
        return try SamplerProgram(layers: [plainLayer()], zones: [zone])
    }

    func fullCost(_ program: SamplerProgram, _ store: LevelStore) -> Int {
        program.levelRequests.reduce(0) { $0 + store.cost(of: $1) }
    }

    @Test func whatDoesNotFitPlaysPlainAndIsSaidInOneLine() throws {
        let program = try program(waveform(), wholeKeyboard: true)
        let store = LevelStore(budget: LevelBudget(limitBytes: 1 << 20))
        let report = program.buildAllLevels(store: store)
        #expect(report.unfit == 1 && report.published == 0)
        #expect(program.regionsAwaitingLevels == 1)
        #expect(store.budget.usedBytes == 0)
        let warning = try #require(report.warning)
        #expect(warning.contains("1 region(s) need") && warning.contains("1 MB level budget") && warning.contains("without band-limiting"))
        #expect(!warning.contains("\n"))
    }

    @Test func aFullBudgetBuildsTheZonesOwnReachWithoutTheBendMargin() throws {
        let program = try program(waveform())
        let request = try #require(program.levelRequests.first)
        // Root key only: bend 2 + RPN 2 semitones reach step 1.26 (levels 0, 1); the margin goes to step 4.
        #expect(request.levelCount == 5 && request.reachLevelCount == 2)
        let reach = RegionLevels.byteCount(frames: 48_000 + 391, levelCount: 2, channelCount: 1)
        let store = LevelStore(budget: LevelBudget(limitBytes: reach))
        let report = program.buildAllLevels(store: store)
        #expect(report.published == 1 && report.reduced == 1)
        #expect(program.publishedLevels.first?.levels.levelCount == 2)
        #expect(store.budget.usedBytes == reach)
        #expect(report.warning?.contains("without the margin") == true)
    }

    /// A render knows its song: it builds only the levels the struck zones reach, unless the song
    /// widens a bend range (RPN 0) beyond 2 semitones, and says nothing about a margin it left out.
    @Test func aRenderPlanBuildsTheReachUnlessTheSongWidensTheBendRange() throws {
        for (song, built) in [([MIDIMessage.noteOn(channel: 0, note: 60, velocity: 100)], 2),
                              ([.controlChange(channel: 0, controller: 101, value: 0), .controlChange(channel: 0, controller: 100, value: 0),
                                .controlChange(channel: 0, controller: 6, value: 12), .noteOn(channel: 0, note: 60, velocity: 100)], 5)] {
            let program = try program(waveform())
            let bank = ProgramBank(programs: [program], names: [""], table: [0: [.sampler(0)]])
            let store = LevelStore(budget: LevelBudget(limitBytes: 1 << 30))
            let plan = LevelBuildPlan(bank: bank, messages: song)
            #expect(plan.widensBendRange == (built == 5))
            let report = plan.build(in: bank, store: store)
            #expect(report.published == 1 && report.warning == nil)
            #expect(program.publishedLevels.first?.levels.levelCount == built)
        }
    }

    /// A render's reach-only levels alive in the store do not stand in for a program that asks
    /// for the bend margin (a test process, or `play` after a render, loads both on one sample).
    @Test func reachOnlyLevelsAliveDoNotServeARequestWithTheMargin() throws {
        let shared = try waveform()
        let store = LevelStore(budget: LevelBudget(limitBytes: 1 << 30))
        let rendered = try program(shared)
        let bank = ProgramBank(programs: [rendered], names: [""], table: [0: [.sampler(0)]])
        LevelBuildPlan(bank: bank, messages: [.noteOn(channel: 0, note: 60, velocity: 100)]).build(in: bank, store: store)
        #expect(rendered.publishedLevels.first?.levels.levelCount == 2)
        let live = try program(shared)
        let report = live.buildAllLevels(store: store)
        #expect(report.published == 1 && report.reduced == 0 && report.warning == nil)
        #expect(live.publishedLevels.first?.levels.levelCount == 5)
    }

    @Test func programsOnOneWaveformShareItsLevelsAndTheirCost() throws {
        let shared = try waveform()
        let programs = try (0..<8).map { _ in try program(shared) }
        let store = LevelStore(budget: LevelBudget(limitBytes: 1 << 30))
        for program in programs { program.buildAllLevels(store: store) }
        let levels = programs.compactMap { $0.publishedLevels.first?.levels }
        #expect(levels.count == 8)
        #expect(levels.allSatisfy { $0 === levels[0] })
        #expect(store.budget.usedBytes == levels[0].byteCount)
    }

    @Test func levelsAreFreedWhenTheLastProgramLetsGo() throws {
        let store = LevelStore(budget: LevelBudget(limitBytes: 1 << 30))
        do {
            let program = try program(waveform())
            program.buildAllLevels(store: store)
            #expect(store.budget.usedBytes > 0)
        }
        #expect(store.budget.usedBytes == 0)
    }

    /// The render thread's side of eviction: a withdrawn form stays alive while a voice started on
    /// it sounds, the next note plays plain, and the memory goes once that voice has ended.
    @Test func withdrawnLevelsAreFreedOnlyAfterTheirLastVoice() throws {
        let store = LevelStore(budget: LevelBudget(limitBytes: 1 << 30))
        let program = try program(waveform())
        program.buildAllLevels(store: store)
        let used = store.budget.usedBytes
        let sampler = instrument(playing: program, levels: .byNeed)
        _ = render(sampler, frames: 4_800, events: [At(0, noteOn(60))])
        #expect(program.lastStrike(region: 0) != 0, "the note-on reported its region")
        #expect(program.withdrawLevels(region: 0))
        #expect(program.reclaimWithdrawnLevels() == 1, "a voice still reads the levels")
        #expect(store.budget.usedBytes == used)
        let held = render(sampler, frames: 4_800)
        #expect(Measure.peak(held.left) > 0.1, "the held note plays on")
        #expect(program.levelRequests.isEmpty, "no new levels while the old ones wait for their voice")
        _ = render(sampler, frames: 9_600, events: [At(0, noteOff(60))])
        #expect(sampler.isSilent)
        #expect(program.reclaimWithdrawnLevels() == 0)
        #expect(store.budget.usedBytes == 0)
        #expect(program.levelRequests.count == 1, "the region may have levels again")
    }

    /// One region's levels with all five levels (1 s looped, mono).
    let oneRegionBytes = RegionLevels.byteCount(frames: 48_000 + 391, levelCount: 5, channelCount: 1)

    /// Two programs on programs 0 and 1 of channel 0, a budget with room for one region's levels
    /// (not two), an instrument playing them and a publisher polling every millisecond.
    func liveRig() throws -> (SamplerProgram, SamplerProgram, SamplerInstrument, LevelPublisher) {
        let first = try program(waveform()), second = try program(waveform())
        let store = LevelStore(budget: LevelBudget(limitBytes: oneRegionBytes + oneRegionBytes / 2))
        let bank = ProgramBank(programs: [first, second], names: ["a", "b"], table: [0: [.sampler(0), .sampler(1)]])
        let sampler = SamplerInstrument(sampleRate: testSampleRate, maxFrames: 512)
        sampler.submit(bank)
        return (first, second, sampler, LevelPublisher.start(bank, store: store, pollMilliseconds: 1))
    }

    /// Live: with room for one region's levels, the publisher builds those of the region just
    /// struck and withdraws the other's (played earlier), once its note has ended.
    @Test func thePublisherBuildsWhatIsStruckAndWithdrawsWhatWasPlayedLongest() async throws {
        let (first, second, sampler, publisher) = try liveRig()
        defer { publisher.stop() }
        let store = publisher.store, oneRegion = oneRegionBytes
        // The prefetch pass builds the start program's region; the second does not fit beside it.
        try await waitFor { first.regionsAwaitingLevels == 0 }
        #expect(second.regionsAwaitingLevels == 1)
        _ = render(sampler, frames: 4_800, events: [At(0, noteOn(60)), At(2_400, noteOff(60))])
        _ = render(sampler, frames: 9_600, events: [At(0, .programChange(channel: 0, program: 1)), At(0, noteOn(60))])
        try await waitFor { second.regionsAwaitingLevels == 0 }
        #expect(first.regionsAwaitingLevels == 1, "the region played longest ago was withdrawn")
        #expect(store.budget.usedBytes == oneRegion)
    }

    /// Notes struck on this thread, alternating between two programs with room for one region's
    /// levels, while the publisher's thread builds, withdraws and frees them: the note-on's count
    /// and acquire against the builder's store, withdrawal and free (run by scripts/tsan-live under
    /// ThreadSanitizer). Every block stays finite and audible, and levels were withdrawn meanwhile.
    @Test func notesStruckWhileLevelsAreWithdrawnAndFreed() throws {
        let (first, second, sampler, publisher) = try liveRig()
        defer { publisher.stop() }
        let store = publisher.store
        var withdrawals = 0, wasPublished = (true, false)
        for block in 0..<400 {
            let out = render(sampler, frames: 1_024, events: [
                At(0, .programChange(channel: 0, program: UInt8(block / 8 % 2))), At(0, noteOn(60)), At(768, noteOff(60)),
            ])
            #expect(out.left.allSatisfy(\.isFinite) && Measure.peak(out.left) > 0.1, "block \(block)")
            let now = (first.regionsAwaitingLevels == 0, second.regionsAwaitingLevels == 0)
            if (wasPublished.0 && !now.0) || (wasPublished.1 && !now.1) { withdrawals += 1 }
            wasPublished = now
            usleep(500)
        }
        #expect(withdrawals > 0, "levels were withdrawn while notes were struck")
        #expect(store.budget.usedBytes <= store.budget.limitBytes)
    }

    func waitFor(_ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(30)
        while !condition(), Date() < deadline { try await Task.sleep(nanoseconds: 2_000_000) }
        #expect(condition())
    }
}
