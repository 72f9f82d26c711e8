import AudioTestSupport
import Foundation
import MIDI
import Sampler
import SamplerLevels
import Synchronization
import Testing

/// Levels built by need: a program made `.byNeed` plays at once, its notes reading the original
/// frames with the 4-point cubic until their region's levels are published; a note keeps the
/// kernel it started with; `LevelBuildPlan` follows a song's program choices to the keys they
/// strike; `LevelPublisher` builds in the background.
@Suite struct LevelBuildingTests {
    final class Flag: Sendable {
        let value = Atomic<Bool>(false)
    }

    let rootKey = 60
    let analysisFrames = 65_536

    /// 15 kHz at 48 kHz, looped: an octave up, the cubic folds it to 18 kHz at full level; the
    /// band-limited levels remove it (its 30 kHz is above the output Nyquist).
    func brightWaveform() throws -> SamplerWaveform {
        let samples = (0..<9_600).map { Float(0.5 * sin(2 * Double.pi * 15_000 * Double($0) / 48_000)) }
        return try SamplerWaveform(channels: [samples], sampleRate: 48_000, naturalLoop: SamplerLoop(startFrame: 4_800, endFrame: 9_600))
    }

    func deferredProgram() throws -> SamplerProgram {
        try SamplerProgram(layers: [plainLayer()], zones: [SamplerZone(waveform: brightWaveform(), rootKey: rootKey)])
    }

    /// The largest component of `out` in dB relative to the 15 kHz sine heard at its root.
    func spuriousDecibels(_ out: [Float], reference: Double) -> Double {
        let worst = Spectrum.largestSpurious(Spectrum.amplitudes(out[...]), sampleRate: testSampleRate, expected: [])
        return Measure.decibels(worst.amplitude / reference)
    }

    func rootReference(_ program: SamplerProgram) -> Double {
        let sampler = instrument(playing: program)
        let out = render(sampler, frames: 4_800 + analysisFrames, events: [At(0, noteOn(rootKey))])
        return Measure.amplitude(Array(out.left[4_800...]), at: 15_000, sampleRate: testSampleRate)
    }

    /// A region long enough for many FFT blocks, its levels built on four builders at once (an
    /// offline render's `--threads`), plays the same samples, transposed up and down, as the
    /// same region built on one.
    @Test func levelsBuiltOnSeveralThreadsAreTheSame() throws {
        let noise = congruentialNoise(count: 120_000, seed: 7).map { Float($0) / Float(Int32.max) * 0.5 }
        func rendered(threads: Int) throws -> Rendered {
            let program = try SamplerProgram(
                layers: [plainLayer()], zones: [SamplerZone(waveform: try SamplerWaveform(channels: [noise], sampleRate: 48_000), rootKey: rootKey)])
            let store = LevelStore(budget: LevelBudget(limitBytes: 1 << 30))
            store.buildThreads = threads
            let notes = [noteOn(rootKey - 5), noteOn(rootKey + 7)]
            #expect(LevelBuildPlan(bank: .single(program), messages: notes).build(in: .single(program), store: store).published == 1)
            return render(instrument(playing: program, levels: .byNeed), frames: 24_000, events: notes.map { At(0, $0) })
        }
        let one = try rendered(threads: 1), four = try rendered(threads: 4)
        #expect(Measure.rms(one.left[...]) > 0.01)
        #expect(four.left == one.left)
        #expect(four.right == one.right)
    }

    @Test func aNoteKeepsItsKernelAndTheNextOnePlaysBandLimited() throws {
        let program = try deferredProgram()
        #expect(program.regionsAwaitingLevels == 1)
        let sampler = instrument(playing: program, levels: .byNeed)
        // Started before the levels exist: the cubic on the original frames.
        _ = render(sampler, frames: 2_400, events: [At(0, noteOn(rootKey + 12))])
        program.buildAllLevels()
        #expect(program.regionsAwaitingLevels == 0)
        let reference = rootReference(program)
        let held = render(sampler, frames: 2_400 + analysisFrames)
        let heldAlias = spuriousDecibels(Array(held.left[2_400...]), reference: reference)
        #expect(heldAlias > -10, "the held note switched kernels: \(heldAlias) dBc")
        // Released, then struck again: now on the published levels.
        let again = render(sampler, frames: 9_600 + analysisFrames, events: [At(0, noteOff(rootKey + 12)), At(4_800, noteOn(rootKey + 12))])
        let newAlias = spuriousDecibels(Array(again.left[9_600...]), reference: reference)
        #expect(newAlias <= -80, "\(newAlias) dBc")
    }

    /// Two programs, each with two regions split at key 64.
    func bank() throws -> ProgramBank {
        func program() throws -> SamplerProgram {
            let low = try brightWaveform(), high = try brightWaveform()
            var a = SamplerZone(waveform: low, rootKey: 60), b = SamplerZone(waveform: high, rootKey: 60)
            a.maxKey = 63
            b.minKey = 64
            return try SamplerProgram(layers: [plainLayer()], zones: [a, b])
        }
        let row: [PartProgram?] = [.sampler(0), .sampler(1)]
        return ProgramBank(programs: [try program(), try program()], names: ["a", "b"], table: [0: row])
    }

    @Test func planFollowsProgramChangesBankSelectAndTheDrumPart() throws {
        let bank = try bank()
        #expect(LevelBuildPlan(bank: bank, messages: []).keys.isEmpty)
        let song: [MIDIMessage] = [
            .noteOn(channel: 0, note: 60, velocity: 100),
            .programChange(channel: 1, program: 1), .noteOn(channel: 1, note: 70, velocity: 100),
            // Bank 5 is not defined: falls back to bank 0, program 1.
            .controlChange(channel: 2, controller: 0, value: 5), .programChange(channel: 2, program: 1),
            .noteOn(channel: 2, note: 50, velocity: 100),
            // A note-on of velocity 0 is a note-off; program 7 is undefined, channel 3 stays on 0.
            .noteOn(channel: 3, note: 100, velocity: 0), .programChange(channel: 3, program: 7),
            .noteOn(channel: 3, note: 61, velocity: 1),
            // The drum part: no bank 128 here, so its kit is program 0's entry.
            .noteOn(channel: 9, note: 36, velocity: 100),
        ]
        let plan = LevelBuildPlan(bank: bank, messages: song)
        #expect(plan.keys == [0: [60, 61, 36], 1: [70, 50]])
        plan.build(in: bank)
        // Program 0: only its low region was struck; program 1: both.
        #expect(bank.programs[0].regionsAwaitingLevels == 1)
        #expect(bank.programs[1].regionsAwaitingLevels == 0)
    }

    /// Each program gets the margin of the parts that strike it: a part that only plays notes gets
    /// none, a full bend up its bend range, the mod wheel and channel pressure half a semitone each,
    /// RPN coarse tuning its semitones; the player's tuning headroom is added to all.
    @Test func planGivesEachProgramTheMarginOfThePartsPlayingIt() throws {
        let bank = try bank()
        let song: [MIDIMessage] = [
            .noteOn(channel: 0, note: 60, velocity: 100),
            .programChange(channel: 1, program: 1), .noteOn(channel: 1, note: 70, velocity: 100),
            // Channel 2 bends fully up with a 5-semitone range set by RPN 0, and moves the mod wheel.
            .controlChange(channel: 2, controller: 101, value: 0), .controlChange(channel: 2, controller: 100, value: 0),
            .controlChange(channel: 2, controller: 6, value: 5), .pitchBend(channel: 2, value: 8191),
            .controlChange(channel: 2, controller: 1, value: 64), .noteOn(channel: 2, note: 62, velocity: 100),
            // Channel 3 plays program 1 with channel pressure and RPN 2 (coarse tuning) +3.
            .programChange(channel: 3, program: 1), .channelPressure(channel: 3, pressure: 40),
            .controlChange(channel: 3, controller: 101, value: 0), .controlChange(channel: 3, controller: 100, value: 2),
            .controlChange(channel: 3, controller: 6, value: 67), .noteOn(channel: 3, note: 64, velocity: 100),
        ]
        let still = LevelBuildPlan(bank: bank, messages: Array(song.prefix(3)))
        #expect(still.pitchShiftSemitones == [0: 0, 1: 0])
        let plan = LevelBuildPlan(bank: bank, messages: song, tuningHeadroomSemitones: 0.25)
        #expect(plan.pitchShiftSemitones[0] == 5 + 0.5 + 0.25)
        #expect(plan.pitchShiftSemitones[1] == 3 + 0.5 + 0.25)
    }

    @Test func publisherBuildsEveryRegionInTheBackground() async throws {
        let bank = try bank()
        let done = Flag()
        let publisher = LevelPublisher.start(bank) { _ in done.value.store(true, ordering: .releasing) }
        defer { publisher.stop() }
        let deadline = Date().addingTimeInterval(30)
        while !done.value.load(ordering: .acquiring), Date() < deadline { try await Task.sleep(nanoseconds: 5_000_000) }
        let finished = done.value.load(ordering: .acquiring)
        #expect(finished)
        #expect(publisher.regionsAwaitingLevels == 0)
        // Published levels play band-limited.
        let program = bank.programs[0]
        let sampler = instrument(playing: program)
        let out = render(sampler, frames: 4_800 + analysisFrames, events: [At(0, noteOn(rootKey + 12))])
        #expect(spuriousDecibels(Array(out.left[4_800...]), reference: rootReference(program)) <= -80)
    }

    /// Notes struck on this thread while the publisher's thread builds and publishes the same
    /// regions: the render side's acquire at note-on against the builder's release store (run by
    /// scripts/tsan-live under ThreadSanitizer). Every block stays finite and audible.
    @Test func notesStruckWhileLevelsArePublished() throws {
        let bank = try bank()
        let sampler = instrument(playing: bank.programs[0], levels: .byNeed)
        let done = Flag()
        let publisher = LevelPublisher.start(bank) { _ in done.value.store(true, ordering: .releasing) }
        defer { publisher.stop() }
        let deadline = Date().addingTimeInterval(30)
        var blocks = 0
        while !done.value.load(ordering: .acquiring), Date() < deadline {
            let key = [rootKey, rootKey + 1, rootKey + 12][blocks % 3]
            let out = render(sampler, frames: 512, events: [At(0, noteOn(key)), At(384, noteOff(key))])
            #expect(out.left.allSatisfy(\.isFinite) && out.right.allSatisfy(\.isFinite))
            #expect(Measure.peak(out.left) > 0.01, "block \(blocks) is audible")
            blocks += 1
        }
        let finished = done.value.load(ordering: .acquiring)
        #expect(finished, "the publisher finished within 30 s (\(blocks) blocks rendered meanwhile)")
    }
}
