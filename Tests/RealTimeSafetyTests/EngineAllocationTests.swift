import DSP
import Engine
import Instruments
import MIDI
import MicEffects
import Sampler
import SamplerLevels
import XCTest

/// The render path allocates nothing: the full graph under load, ≥ 10,000 blocks, 0 mallocs.
final class EngineAllocationTests: XCTestCase {
    let rate = 48000.0
    let blockFrames = 64
    let measuredBlocks = 10_000

    func sine(_ frequency: Double, frames: Int = 48000) -> [Float] {
        (0..<frames).map { Float(0.3 * sin(2 * Double.pi * frequency * Double($0) / rate)) }
    }

    func loop(_ frequency: Double, channels: Int) -> LoopSample {
        LoopSample(name: "test", channels: Array(repeating: sine(frequency), count: channels))!
    }

    /// Every source busy: 3 loops, both master filters, a looping sampler program, mic input.
    func busyEngine() throws -> AudioEngine {
        // A looped 400-cycle sine at 480 Hz: seamless, so 64 voices can sustain forever.
        let waveform = try SamplerWaveform(channels: [sine(480, frames: 40000)], sampleRate: rate,
                                           naturalLoop: SamplerLoop(startFrame: 0, endFrame: 40000))
        let program = SamplerProgram.single(waveform, rootKey: 69, layer: articulatedLayer(), globals: SamplerGlobals(voiceCount: 64))
        program.buildAllLevels()
        let content = EngineContent(
            loops: [.guitar: loop(220, channels: 2), .beat: loop(110, channels: 1), .file: loop(330, channels: 2)],
            controls: [ControlMapping(channel: 15, trigger: .controller(74), parameter: "master.lowpass.cutoff")],
            samplerProgram: program)
        let engine = try AudioEngine(configuration: EngineConfiguration(sampleRate: rate, maxFrames: blockFrames), content: content)
        for s in ["loop.guitar.play=on", "loop.beat.play=on", "loop.file.play=on", "master.lowpass.enabled=on",
                  "master.highpass.enabled=on", "synth.voices=32", "synth.release=2", "synth.follow=on"] {
            try engine.parameters.apply(assignment: s)
        }
        return engine
    }

    /// A sampler layer using all of its articulation: a resonant band-pass, curved envelope
    /// segments and a sample & hold LFO on pitch (× mod wheel), cutoff, level and pan.
    func articulatedLayer() -> SamplerLayer {
        var layer = SamplerLayer()
        layer.ampEnvelope = EnvelopeSettings(
            delaySeconds: 0.001, attackSeconds: 0.01, holdSeconds: 0.005, decaySeconds: 0.2, sustainLevel: 0.6,
            releaseSeconds: 0.3, attackCurve: .convex, decayCurve: .concave, releaseCurve: .convex)
        layer.filter = SamplerFilterSettings(isEnabled: true, kind: .bandPass, cutoffHz: 800, resonanceDecibels: 12)
        layer.lfo = SamplerLFO(
            oscillator: .init(waveform: .sampleAndHold, rateHz: 6, delaySeconds: 0.002, fadeInSeconds: 0.05),
            pitch: SamplerLFODepth(amount: 30, controller: 1), cutoff: SamplerLFODepth(amount: 1_200),
            gain: SamplerLFODepth(amount: 3), pan: SamplerLFODepth(amount: 0.5))
        return layer
    }

    func testInterposerCounts() {
        XCTAssertGreaterThan(AllocationCounter.sanityCheck(), 0, "the malloc interposer is not loaded")
    }

    /// 64 sampler voices and 32 synth voices sounding, loops, filters sweeping, mic input through
    /// every effect in turn with the pitch follower on, and MIDI events in every block.
    func testFullGraphRendersWithoutAllocating() throws {
        let engine = try busyEngine()
        let output = StereoBuffer(capacity: blockFrames)
        let input = StereoBuffer(capacity: blockFrames)
        let voice = sine(196, frames: blockFrames * 100)
        let events = UnsafeMutableBufferPointer<TimedMIDIMessage>.allocate(capacity: 8)
        defer { events.deallocate() }
        let effects = MicEffectKind.allCases.map { "mic.effect=\($0.name)" }
        var effectIndex = 0
        var quietestBlockPeak: Float = .infinity  // every measured block must carry sound
        func renderBlock(_ n: Int) {
            // 90 distinct notes cycle through, so both instruments run at their voice limits and steal.
            let note = UInt8(20 + n % 90)
            events[0] = TimedMIDIMessage(frameOffset: 0, message: .noteOn(channel: 1, note: note, velocity: 100))
            events[1] = TimedMIDIMessage(frameOffset: 5, message: .noteOn(channel: 0, note: note, velocity: UInt8(20 + n % 100)))
            events[2] = TimedMIDIMessage(frameOffset: 17, message: .pitchBend(channel: 1, value: Int16(n % 8192)))
            events[3] = TimedMIDIMessage(frameOffset: 31, message: .controlChange(channel: 15, controller: 74, value: UInt8(n % 128)))
            events[4] = TimedMIDIMessage(frameOffset: 40, message: .noteOff(channel: 1, note: note &- 40, velocity: 0))
            events[5] = TimedMIDIMessage(frameOffset: 50, message: .controlChange(channel: 0, controller: 64, value: n % 2 == 0 ? 127 : 0))
            events[6] = TimedMIDIMessage(frameOffset: 60, message: .controlChange(channel: 0, controller: 1, value: UInt8(n % 128)))
            let start = (n % 100) * blockFrames
            for i in 0..<blockFrames {
                input.left[i] = voice[start + i]
                input.right[i] = voice[start + i]
            }
            engine.render(output: output.block(frames: blockFrames), input: input.block(frames: blockFrames),
                          events: UnsafeBufferPointer(rebasing: events[0..<7]))
            var peak: Float = 0
            for i in 0..<blockFrames { peak = max(peak, abs(output.left[i]), abs(output.right[i])) }
            quietestBlockPeak = min(quietestBlockPeak, peak)
        }
        for n in 0..<300 { renderBlock(n) }  // warm up: every voice slot used, every smoother moving
        quietestBlockPeak = .infinity  // the first block is silent: the limiter's look-ahead delay
        XCTAssertGreaterThanOrEqual(engine.activeVoiceCounts.synth, 32)
        XCTAssertGreaterThanOrEqual(engine.activeVoiceCounts.sampler, 64)
        // Settings are applied between blocks (as the control thread would) outside the count;
        // each effect then renders 10,000 blocks under the counter.
        var total = 0
        for effect in effects {
            try engine.parameters.apply(assignment: effect)
            engine.performControlWork()  // builds the effect, as the control thread would
            total += AllocationCounter.count {
                for n in 0..<measuredBlocks { renderBlock(n) }
            }
            XCTAssertEqual(engine.controller.micReadouts.effect.rawValue, effectIndex, "\(effect) never became active")
            effectIndex += 1
        }
        XCTAssertEqual(total, 0, "the render path allocated \(total) times in \(effects.count) × \(measuredBlocks) blocks")
        XCTAssertGreaterThanOrEqual(engine.activeVoiceCounts.synth, 32)
        XCTAssertGreaterThanOrEqual(engine.activeVoiceCounts.sampler, 64)
        XCTAssertGreaterThan(quietestBlockPeak, 0.01, "every rendered block peaks above −40 dBFS (the counted work made sound)")
    }

    /// Sixteen parts sounding (sampler programs on 14, the synth on 2), with program changes, bank
    /// selects, RPN bend ranges, pedals and pan arriving on a rotating channel every block, and
    /// SysEx among them: a GS rhythm part and a master volume every block, a GM reset every 1000.
    func testSixteenPartsWithProgramChangesRenderWithoutAllocating() throws {
        func looped(_ frequency: Double) throws -> SamplerProgram {
            let waveform = try SamplerWaveform(channels: [sine(frequency, frames: 40000)], sampleRate: rate,
                                               naturalLoop: SamplerLoop(startFrame: 0, endFrame: 40000))
            let program = SamplerProgram.single(waveform, rootKey: 69, globals: SamplerGlobals(gainDecibels: -30, voiceCount: 16))
            program.buildAllLevels()
            return program
        }
        let row0: [PartProgram?] = (0..<128).map { $0 % 8 == 7 ? .synth : .sampler($0 % 3) }
        let row1: [PartProgram?] = (0..<128).map { $0 % 2 == 0 ? .sampler(2) : nil }
        let bank = ProgramBank(programs: [try looped(480), try looped(360), try looped(600)], names: ["a", "b", "c"],
                               table: [0: row0, 1: row1, 128: [.sampler(1)]],
                               parts: (0..<16).map { PartSetup(program: $0 == 5 || $0 == 11 ? 7 : $0 % 3, isDrum: $0 == 9) })
        let engine = try AudioEngine(configuration: EngineConfiguration(sampleRate: rate, maxFrames: blockFrames, maxSynthVoices: 32,
                                                                        maxSamplerVoices: 128),
                                     content: EngineContent(programBank: bank))
        try engine.parameters.apply(assignment: "synth.voices=32")
        let output = StereoBuffer(capacity: blockFrames)
        let block = EventBlock(capacity: 20)
        func renderBlock(_ n: Int) {
            let (channel, _) = block.startRotation(n, parts: 16, velocity: 100)
            block.add(3, .controlChange(channel: channel, controller: 0, value: UInt8(n / 16 % 2)))
            block.add(4, .controlChange(channel: channel, controller: 32, value: UInt8(n % 3)))
            block.add(5, .programChange(channel: channel, program: UInt8(n / 16 % 128)))
            block.add(9, .controlChange(channel: channel, controller: 101, value: 0))
            block.add(9, .controlChange(channel: channel, controller: 100, value: 0))
            block.add(10, .controlChange(channel: channel, controller: 6, value: UInt8(1 + n % 12)))
            block.add(20, .pitchBend(channel: channel, value: Int16(n % 8192 - 4096)))
            block.add(30, .controlChange(channel: channel, controller: 10, value: UInt8(n % 128)))
            block.add(40, .controlChange(channel: channel, controller: 7, value: UInt8(64 + n % 64)))
            block.add(50, .controlChange(channel: channel, controller: 66, value: n % 32 < 16 ? 127 : 0))
            block.add(60, .controlChange(channel: channel, controller: 64, value: n % 64 < 32 ? 127 : 0))
            block.add(70, .system(.rhythmPart(channel: (channel + 3) % 16, map: UInt8(n % 2))))
            block.add(80, .system(.masterVolume(UInt16(12_000 + n % 4000))))
            if n % 1000 == 500 { block.add(90, .system(.reset(.generalMIDI))) }
            engine.render(output: output.block(frames: blockFrames), events: block.events)
        }
        for n in 0..<2_000 { renderBlock(n) }  // warm up: every part has its 8 notes
        let total = AllocationCounter.count {
            for n in 0..<measuredBlocks { renderBlock(n) }
        }
        XCTAssertEqual(total, 0, "the render path allocated \(total) times in \(measuredBlocks) blocks")
        for c in 0..<16 { XCTAssertGreaterThan(engine.partMeters.voices(channel: c), 0, "part \(c + 1) sounds") }
        XCTAssertGreaterThanOrEqual(engine.activeVoiceCounts.sampler + engine.activeVoiceCounts.synth, 100)
    }
}
