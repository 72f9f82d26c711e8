import DSP
import Engine
import Instruments
import MIDI
import XCTest

/// The render path allocates nothing: the full graph under load, ≥ 10,000 blocks, 0 mallocs.
final class EngineAllocationTests: XCTestCase {
    let rate = 48000.0
    let blockFrames = 64
    let measuredBlocks = 10_000

    func loop(_ frequency: Double, channels: Int) -> LoopSample {
        let x = (0..<48000).map { Float(0.3 * sin(2 * Double.pi * frequency * Double($0) / rate)) }
        return LoopSample(name: "test", channels: Array(repeating: x, count: channels))!
    }

    func testInterposerCounts() {
        XCTAssertGreaterThan(AllocationCounter.sanityCheck(), 0, "the malloc interposer is not loaded")
    }

    /// 32 synth voices sounding, three loops playing, both master filters and the file high-pass
    /// on and sweeping, MIDI events in every block (notes, bends, controllers, mapped controls).
    func testFullGraphRendersWithoutAllocating() throws {
        let content = EngineContent(
            loops: [.guitar: loop(220, channels: 2), .beat: loop(110, channels: 1), .file: loop(330, channels: 2)],
            controls: [ControlMapping(channel: 15, trigger: .controller(74), parameter: "master.lowpass.cutoff")])
        let engine = try AudioEngine(configuration: EngineConfiguration(sampleRate: rate, maxFrames: blockFrames), content: content)
        for s in ["loop.guitar.play=on", "loop.beat.play=on", "loop.file.play=on", "master.lowpass.enabled=on",
                  "master.highpass.enabled=on", "synth.voices=32", "synth.release=2"] {
            try engine.parameters.apply(assignment: s)
        }
        let output = StereoBuffer(capacity: blockFrames)
        let events = UnsafeMutableBufferPointer<TimedMIDIMessage>.allocate(capacity: 8)
        defer { events.deallocate() }
        func renderBlock(_ n: Int) {
            // Keep 32 voices busy: a new note (stealing the oldest) and a release every block.
            let note = UInt8(36 + n % 48)
            events[0] = TimedMIDIMessage(frameOffset: 0, message: .noteOn(channel: 1, note: note, velocity: 100))
            events[1] = TimedMIDIMessage(frameOffset: 17, message: .pitchBend(channel: 1, value: Int16(n % 8192)))
            events[2] = TimedMIDIMessage(frameOffset: 31, message: .controlChange(channel: 15, controller: 74, value: UInt8(n % 128)))
            events[3] = TimedMIDIMessage(frameOffset: 40, message: .noteOff(channel: 1, note: note &- 40, velocity: 0))
            events[4] = TimedMIDIMessage(frameOffset: 50, message: .controlChange(channel: 1, controller: 64, value: n % 2 == 0 ? 127 : 0))
            engine.render(output: output.block(frames: blockFrames), events: UnsafeBufferPointer(rebasing: events[0..<5]))
        }
        for n in 0..<200 { renderBlock(n) } // warm up: every voice slot used, every smoother moving
        XCTAssertGreaterThanOrEqual(engine.synth.activeVoiceCount, 32)
        let mallocs = AllocationCounter.count {
            for n in 0..<measuredBlocks { renderBlock(n) }
        }
        XCTAssertEqual(mallocs, 0, "the render path allocated \(mallocs) times in \(measuredBlocks) blocks")
        XCTAssertGreaterThanOrEqual(engine.synth.activeVoiceCount, 32)
    }
}
