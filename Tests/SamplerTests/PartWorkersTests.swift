#if canImport(Glibc)
import Glibc
#endif
import AudioTestSupport
import DSP
import Foundation
import MIDI
import Sampler
import SamplerLevels
import Synchronization
import Testing

/// Parts rendered by several threads at once (an offline render's helpers): the output is the
/// same, sample for sample, as the render thread's alone, whoever renders which part, and a
/// helper that never comes costs nothing but speed.
@Suite struct PartWorkersTests {
    let rate = testSampleRate

    /// Eight parts: four sines with vibrato-free pitch moves, volume and pan ramps, reverb and
    /// chorus sends, and a release, at different keys, struck and released at different times;
    /// part 1 also holds a 12-note chord (its voices render in two groups, `SpanMemory`).
    var events: [At] {
        var events: [At] = (0..<12).map { At(500 + $0 * 37, .noteOn(channel: 0, note: UInt8(40 + 3 * $0), velocity: 90)) }
        for channel in UInt8(0)..<8 {
            let start = Int(channel) * 997
            events.append(At(start, .noteOn(channel: channel, note: 48 + channel * 5, velocity: 60 + channel * 8)))
            events.append(At(start + 3_000, .noteOn(channel: channel, note: 55 + channel * 3, velocity: 100)))
            events.append(At(start + 7_000, .controlChange(channel: channel, controller: MIDIController.volume, value: 40 + channel * 10)))
            events.append(At(start + 9_000, .controlChange(channel: channel, controller: MIDIController.pan, value: channel * 16)))
            events.append(At(start + 11_000, .pitchBend(channel: channel, value: Int16(channel) * 900 - 3_000)))
            events.append(At(start + 12_000, .controlChange(channel: channel, controller: MIDIController.reverbSend, value: 20 + channel * 12)))
            events.append(At(start + 13_000, .controlChange(channel: channel, controller: MIDIController.chorusSend, value: 100 - channel * 9)))
            events.append(At(start + 20_000, .noteOff(channel: channel, note: 48 + channel * 5, velocity: 64)))
        }
        return events
    }

    func sampler(workers: Int) -> SamplerInstrument {
        let programs = (0..<4).map { i in
            SamplerProgram.single(
                .sineCycle(frequencyHz: 220 * Double(i + 1)), rootKey: 57, layer: plainLayer(attackSeconds: 0.002 * Double(i + 1), releaseSeconds: 0.2),
                globals: SamplerGlobals(gainDecibels: -18))
        }
        let row: [PartProgram?] = (0..<128).map { .sampler($0 % 4) }
        let bank = ProgramBank(programs: programs, names: ["a", "b", "c", "d"], table: [0: row])
        // A store of its own: tests running beside it (a level publisher) contend for the shared
        // one's lock, whose contended path (a PI futex) ThreadSanitizer cannot see.
        let store = LevelStore(budget: LevelBudget(limitBytes: 1 << 30))
        for program in bank.programs { program.buildAllLevels(store: store) }
        let s = SamplerInstrument(sampleRate: rate, maxFrames: 512, maxVoices: 64, workers: workers)
        s.submit(bank)
        for channel in UInt8(0)..<8 { s.handle(.programChange(channel: channel, program: channel)) }
        return s
    }

    /// Two helper threads spin on the posted span and claim what they can. Every render is
    /// compared; renders repeat until the helpers have taken parts (which of them they take, and
    /// whether at all, is up to the scheduler: on an idle machine the first render does).
    @Test func helpersRenderTheSameSamplesAsTheRenderThreadAlone() throws {
        let frames = 40_000
        let alone = renderWithSends(sampler(workers: 1), frames: frames, events: events)
        #expect(Measure.rms(alone.output[...]) > 0.01, "the parts sound")
        #expect(Measure.rms(alone.reverb[...]) > 0.001 && Measure.rms(alone.chorus[...]) > 0.001, "and send")

        let shared = Atomic<Int>(0), stop = Atomic<Bool>(false), helped = Atomic<Int>(0), running = Atomic<Int>(0)
        var instruments: [UncheckedSampler] = []
        for _ in 0..<200 { instruments.append(UncheckedSampler(sampler(workers: 3))) }
        let done = DispatchGroup()
        for worker in 1...2 {
            done.enter()
            let all = instruments
            Thread {
                running.add(1, ordering: .relaxed)
                var current = -1, seen = -1
                while !stop.load(ordering: .relaxed) {
                    let index = shared.load(ordering: .acquiring)
                    if index != current { current = index; seen = all[index].sampler.postedSpan }
                    let span = all[index].sampler.postedSpan
                    guard span != seen else { continue }
                    seen = span
                    helped.add(all[index].sampler.help(span: span, worker: worker), ordering: .relaxed)
                }
                done.leave()
            }.start()
        }
        while running.load(ordering: .relaxed) < 2 { sched_yield() }
        var renders = 0
        for index in instruments.indices where helped.load(ordering: .relaxed) == 0 || renders == 0 {
            shared.store(index, ordering: .releasing)
            let together = renderWithSends(instruments[index].sampler, frames: frames, events: events)
            renders += 1
            #expect(together == alone)
        }
        stop.store(true, ordering: .relaxed)
        done.wait()
        #expect(helped.load(ordering: .relaxed) > 0, "the helpers took parts (in \(renders) renders)")
    }

    /// A part's voices beyond one group (`SpanMemory.groupSize`) render into groups of their
    /// own, added back to the part: a 12-note chord on one part is its two halves played apart,
    /// sample for sample within float rounding, sends included.
    @Test func aChordOfMoreThanOneGroupIsTheSumOfItsHalves() {
        let chord = (0..<12).map { At(100 + $0 * 41, .noteOn(channel: 0, note: UInt8(40 + 3 * $0), velocity: 90)) }
        let sends = [At(0, .controlChange(channel: 0, controller: MIDIController.reverbSend, value: 90))]
        let frames = 20_000
        let whole = renderWithSends(sampler(workers: 1), frames: frames, events: sends + chord)
        let low = renderWithSends(sampler(workers: 1), frames: frames, events: sends + Array(chord[..<6]))
        let high = renderWithSends(sampler(workers: 1), frames: frames, events: sends + Array(chord[6...]))
        #expect(Measure.rms(whole.output[...]) > 0.01 && Measure.rms(whole.reverb[...]) > 0.001)
        for i in 0..<frames {
            #expect(abs(whole.output[i] - low.output[i] - high.output[i]) <= 1e-6)
            #expect(abs(whole.reverb[i] - low.reverb[i] - high.reverb[i]) <= 1e-6)
        }
    }

    /// Three workers configured, no helper thread ever started: the render thread claims every
    /// part itself and never waits.
    @Test func absentHelpersCostNothingButSpeed() {
        let frames = 12_000
        let alone = renderWithSends(sampler(workers: 1), frames: frames, events: events)
        let unhelped = renderWithSends(sampler(workers: 3), frames: frames, events: events)
        #expect(unhelped == alone)
    }
}

/// Left output, then the reverb and chorus sends' left channels, rendered as the engine does:
/// blocks of 256 split at events, each part's CC91/CC93 sends taken.
func renderWithSends(_ instrument: SamplerInstrument, frames: Int, events: [At]) -> (output: [Float], reverb: [Float], chorus: [Float]) {
    let block = 256, buffer = StereoBuffer(capacity: block), sends = SendBus(maxFrames: block)
    var result: (output: [Float], reverb: [Float], chorus: [Float]) = ([], [], [])
    let sorted = events.sorted { $0.frame < $1.frame }
    var next = 0, position = 0
    while position < frames {
        let n = min(block, frames - position)
        let out = buffer.block(frames: n)
        out.clear()
        sends.begin(frames: n)
        sends.reverb.block(frames: n).clear()
        sends.chorus.block(frames: n).clear()
        var offset = 0
        while offset < n {
            while next < sorted.count && sorted[next].frame <= position + offset {
                instrument.handle(sorted[next].message)
                next += 1
            }
            let end = next < sorted.count ? min(max(sorted[next].frame - position, offset + 1), n) : n
            instrument.render(into: out.slice(from: offset, count: end - offset), sends: sends.target, at: offset)
            offset = end
        }
        result.output += UnsafeBufferPointer(start: out.left, count: n)
        result.reverb += UnsafeBufferPointer(start: sends.reverb.left, count: n)
        result.chorus += UnsafeBufferPointer(start: sends.chorus.left, count: n)
        position += n
    }
    return result
}

/// The instrument handed to the test's helper threads (they call only `postedSpan` and `help`).
private struct UncheckedSampler: @unchecked Sendable {
    let sampler: SamplerInstrument
    init(_ sampler: SamplerInstrument) { self.sampler = sampler }
}
