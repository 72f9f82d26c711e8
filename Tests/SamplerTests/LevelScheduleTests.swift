import AudioTestSupport
import Foundation
import MIDI
import Sampler
import SamplerLevels
import Testing

/// An offline render's levels live only while its song uses them (`LevelSchedule`): built before
/// the block of a region's first strike, withdrawn after its last, rebuilt after a long silence;
/// the same levels withdrawn but still held by a voice are published again as they are.
@Suite struct LevelScheduleTests {
    let second = 48_000

    /// 1 s looped at 48 kHz, root 60 answering only its root key: reach levels 0 and 1.
    func program(_ frequency: Double) throws -> SamplerProgram {
        let samples = (0..<48_000).map { Float(0.5 * sin(2 * Double.pi * frequency * Double($0) / 48_000)) }
        let waveform = try SamplerWaveform(channels: [samples], sampleRate: 48_000, naturalLoop: SamplerLoop(startFrame: 24_000, endFrame: 48_000))
        var zone = SamplerZone(waveform: waveform, rootKey: 60)
        zone.minKey = 60
        zone.maxKey = 60
        return try SamplerProgram(layers: [plainLayer()], zones: [zone])
    }

    /// The cost of one program's reach levels.
    var oneRegion: Int { RegionLevels.byteCount(frames: 48_000 + 391, levelCount: 2, channelCount: 1) }

    /// Runs `song` through a schedule one message per 1 s block, as the offline renderer does
    /// (no voices: withdrawn levels are freed at once); returns the store's budget and the regions'
    /// worth of levels alive after each block's `prepare` and after its `release`.
    func schedule(_ song: [MIDIMessage], bank: ProgramBank, gapSeconds: Int) -> (budget: LevelBudget, prepared: [Int], released: [Int]) {
        let store = LevelStore(budget: LevelBudget(limitBytes: 1 << 30))
        let schedule = LevelSchedule(
            plan: LevelBuildPlan(bank: bank, messages: song), bank: bank, store: store, sampleRate: Double(second), frame: { $0 * second }, gapFrames: gapSeconds * second)
        var prepared: [Int] = [], released: [Int] = []
        for end in 1...song.count {
            schedule.prepare(before: end)
            prepared.append(store.budget.usedBytes / oneRegion)
            schedule.release(before: end)
            released.append(store.budget.usedBytes / oneRegion)
        }
        #expect(schedule.report.published > 0 && schedule.report.warning == nil)
        return (store.budget, prepared, released)
    }

    /// A region whose every zone plays at its root pitch (`SamplerZone.playsAtRootPitch`, a
    /// SoundFont zone on a steady channel) gets no levels when the output runs at its sample's
    /// rate, where its voices read the frames themselves; at another rate they step otherwise and
    /// it gets them. A region one of whose zones may leave the root gets them anyway.
    @Test func aRegionPlayedAtItsRootPitchAtItsOwnRateGetsNoLevels() throws {
        func built(rate: Double, otherZoneAtRoot: Bool) throws -> Int {
            let waveform = try SamplerWaveform(channels: [[Float](repeating: 0.25, count: 48_000)], sampleRate: 48_000)
            var zones = [SamplerZone(waveform: waveform, rootKey: 60), SamplerZone(waveform: waveform, rootKey: 62)]
            zones[0].maxKey = 61
            zones[1].minKey = 62
            zones[0].playsAtRootPitch = true
            zones[1].playsAtRootPitch = otherZoneAtRoot
            let bank = ProgramBank.single(try SamplerProgram(layers: [plainLayer()], zones: zones))
            let store = LevelStore(budget: LevelBudget(limitBytes: 1 << 30))
            let song: [MIDIMessage] = [noteOn(60), noteOn(62)]
            let schedule = LevelSchedule(
                plan: LevelBuildPlan(bank: bank, messages: song), bank: bank, store: store, sampleRate: rate, frame: { $0 }, gapFrames: second)
            schedule.prepare(before: song.count)
            return schedule.report.published
        }
        #expect(try built(rate: 48_000, otherZoneAtRoot: true) == 0)
        #expect(try built(rate: 44_100, otherZoneAtRoot: true) == 1)
        #expect(try built(rate: 48_000, otherZoneAtRoot: false) == 1)
    }

    /// A song whose halves play different programs holds one half's levels at a time, where
    /// building everything before the first block holds both.
    @Test func levelsAliveAtOnceAreOneHalfsNotTheSum() throws {
        let bank = ProgramBank(programs: [try program(1_000), try program(2_000)], names: ["a", "b"], table: [0: [.sampler(0), .sampler(1)]])
        let song: [MIDIMessage] = [noteOn(60), noteOff(60), noteOn(60), noteOff(60), .programChange(channel: 0, program: 1),
                                   noteOn(60), noteOff(60), noteOn(60), noteOff(60)]
        let run = schedule(song, bank: bank, gapSeconds: 1_000)
        #expect(run.budget.peakBytes == oneRegion)
        #expect(run.released == [1, 1, 0, 0, 0, 1, 1, 0, 0], "each region withdrawn and freed after its last note")

        let store = LevelStore(budget: LevelBudget(limitBytes: 1 << 30))
        LevelBuildPlan(bank: bank, messages: song).build(in: bank, store: store)
        #expect(store.budget.peakBytes == 2 * oneRegion)
    }

    /// So a budget holding one half's levels band-limits the whole song, where building everything
    /// first leaves the second half plain; a region that does not fit is named once however many
    /// uses it has.
    @Test func aBudgetForOneHalfServesBoth() throws {
        let bank = ProgramBank(programs: [try program(1_000), try program(2_000)], names: ["a", "b"], table: [0: [.sampler(0), .sampler(1)]])
        let song: [MIDIMessage] = [noteOn(60), noteOff(60), .programChange(channel: 0, program: 1), noteOn(60), noteOff(60)]
        let plan = LevelBuildPlan(bank: bank, messages: song)
        #expect(plan.build(in: bank, store: LevelStore(budget: LevelBudget(limitBytes: oneRegion))).unfit == 1)
        for (limit, published, unfit) in [(oneRegion, 2, 0), (oneRegion - 1, 0, 2)] {
            let fresh = ProgramBank(programs: [try program(1_000), try program(2_000)], names: ["a", "b"], table: [0: [.sampler(0), .sampler(1)]])
            let again = song + [.programChange(channel: 0, program: 0)] + song  // each region used twice, far apart
            let schedule = LevelSchedule(
                plan: LevelBuildPlan(bank: fresh, messages: again), bank: fresh, store: LevelStore(budget: LevelBudget(limitBytes: limit)), sampleRate: Double(second),
                frame: { $0 * second * 100 }, gapFrames: second)
            for end in 1...again.count {
                schedule.prepare(before: end)
                schedule.release(before: end)
            }
            #expect(schedule.report.published == published && schedule.report.unfit == unfit, "budget \(limit) bytes")
        }
    }

    /// Strikes further apart than the gap are two uses: the levels go between them and come back
    /// before the second; strikes within it are one use.
    @Test func aRegionStruckAgainAfterTheGapIsRebuiltBeforeIt() throws {
        let bank = ProgramBank(programs: [try program(1_000)], names: ["a"], table: [0: [.sampler(0)]])
        // Strikes at 0 s, 2 s and 6 s (positions 0, 2, 6).
        let song: [MIDIMessage] = [noteOn(60), noteOff(60), noteOn(60), noteOff(60), controlChange(7, 100), controlChange(7, 90), noteOn(60)]
        let apart = schedule(song, bank: bank, gapSeconds: 2)
        #expect(apart.prepared == [1, 1, 1, 0, 0, 0, 1] && apart.released == [1, 1, 0, 0, 0, 0, 0])
        let close = schedule(song, bank: bank, gapSeconds: 10)
        #expect(close.prepared == [1, 1, 1, 1, 1, 1, 1] && close.released == [1, 1, 1, 1, 1, 1, 0])
        #expect(apart.budget.peakBytes == oneRegion && close.budget.peakBytes == oneRegion)
    }

    /// A region withdrawn while a voice still holds its levels takes those levels back at once
    /// (a rebuild finds them alive in the store), and no other levels until they are freed.
    @Test func heldLevelsArePublishedAgainAsTheyAre() throws {
        let store = LevelStore(budget: LevelBudget(limitBytes: 1 << 30))
        let program = try program(1_000)
        let request = try #require(program.levelRequests.first)
        program.buildAllLevels(store: store)
        let levels = try #require(program.publishedLevels.first?.levels)
        let sampler = instrument(playing: program, levels: .byNeed)
        _ = render(sampler, frames: 4_800, events: [At(0, noteOn(60))])
        #expect(program.withdrawLevels(region: 0))
        #expect(program.reclaimWithdrawnLevels() == 1, "a voice still reads the levels")
        guard case .levels(let other) = LevelStore(budget: LevelBudget(limitBytes: 1 << 30)).levels(for: request) else {
            Issue.record("levels did not build")
            return
        }
        #expect(!program.publishLevels(other, for: request), "other levels wait until the held ones are freed")
        guard case .levels(let found) = store.levels(for: request, margin: false) else {
            Issue.record("the held levels were not found alive")
            return
        }
        #expect(found === levels)
        #expect(program.publishLevels(found, for: request))
        #expect(program.reclaimWithdrawnLevels() == 0 && program.publishedLevels.first?.levels === levels)
        #expect(store.budget.usedBytes == store.budget.peakBytes, "nothing built twice")
    }
}
