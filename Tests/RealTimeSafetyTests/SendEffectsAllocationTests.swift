import DSP
import Engine
import MIDI
import Sampler
import SamplerLevels
import XCTest

/// The send effects and the player's calibration on the render path allocate nothing: every part
/// sending to reverb and chorus with moving CC91/CC93, RPN tuning, soft pedal and NRPN traffic,
/// and the fx.*, tuning and velocity parameters changing between blocks; ≥ 10,000 blocks, 0 mallocs.
final class SendEffectsAllocationTests: XCTestCase {
    let rate = 48000.0
    let blockFrames = 64
    let measuredBlocks = 10_000

    func testSendsAndCalibrationRenderWithoutAllocating() throws {
        let table = (0..<40000).map { Float(0.3 * sin(2 * Double.pi * 480 * Double($0) / rate)) }
        let waveform = try SamplerWaveform(channels: [table], sampleRate: rate, naturalLoop: SamplerLoop(startFrame: 0, endFrame: 40000))
        let program = SamplerProgram.single(waveform, rootKey: 69, globals: SamplerGlobals(voiceCount: 32))
        program.buildAllLevels()
        let engine = try AudioEngine(configuration: EngineConfiguration(sampleRate: rate, maxFrames: blockFrames),
                                     content: EngineContent(samplerProgram: program))
        let output = StereoBuffer(capacity: blockFrames)
        let block = EventBlock(capacity: 16)
        func renderBlock(_ n: Int) {
            // Channels 1 (sampler) and 2 (synth) alternate.
            let (channel, _) = block.startRotation(n, parts: 2, velocity: UInt8(30 + n % 90))
            block.add(5, .controlChange(channel: channel, controller: MIDIController.reverbSend, value: UInt8(n % 128)))
            block.add(6, .controlChange(channel: channel, controller: MIDIController.chorusSend, value: UInt8(127 - n % 128)))
            block.add(9, .controlChange(channel: channel, controller: 101, value: 0))
            block.add(9, .controlChange(channel: channel, controller: 100, value: UInt8(n % 3)))
            block.add(10, .controlChange(channel: channel, controller: 6, value: UInt8(60 + n % 8)))
            block.add(11, .controlChange(channel: channel, controller: 38, value: UInt8(n % 128)))
            block.add(20, .controlChange(channel: channel, controller: 99, value: 1))
            block.add(21, .controlChange(channel: channel, controller: 6, value: 99))
            block.add(30, .controlChange(channel: channel, controller: MIDIController.softPedal, value: n % 16 < 8 ? 127 : 0))
            engine.render(output: output.block(frames: blockFrames), events: block.events)
        }
        let settings = [["fx.reverb.decay=0.7", "fx.reverb.size=0.5", "fx.chorus.voices=2", "tuning.a4=442", "velocity.curve=0.5"],
                        ["fx.reverb.decay=4", "fx.reverb.size=1.7", "fx.reverb.damping=2000", "fx.chorus.voices=4", "fx.chorus.rate=3",
                         "tuning.a4=438", "velocity.curve=2"]]
        for n in 0..<1_000 { renderBlock(n) }  // warm up
        var total = 0
        for round in 0..<10 {
            // Settings change between blocks (the control thread's side), the render thread applies them.
            for s in settings[round % 2] { try engine.parameters.apply(assignment: s) }
            total += AllocationCounter.count {
                for n in 0..<(measuredBlocks / 10) { renderBlock(round * 1000 + n) }
            }
        }
        XCTAssertEqual(total, 0, "the render path allocated \(total) times in \(measuredBlocks) blocks")
        XCTAssertGreaterThan(engine.activeVoiceCounts.sampler, 0)
        XCTAssertGreaterThan(engine.activeVoiceCounts.synth, 0)
        XCTAssertFalse(engine.isIdle)
        // The sends really ran: after all sound off on both parts the reverb tail still sounds.
        block.clear()
        block.add(0, .controlChange(channel: 0, controller: MIDIController.allSoundOff, value: 0))
        block.add(0, .controlChange(channel: 1, controller: MIDIController.allSoundOff, value: 0))
        engine.render(output: output.block(frames: blockFrames), events: block.events)
        var tailPeak: Float = 0
        for n in 0..<750 {  // 0.5 s later, the voices' 5 ms fades long over
            engine.render(output: output.block(frames: blockFrames))
            if n > 740 { for i in 0..<blockFrames { tailPeak = max(tailPeak, abs(output.left[i])) } }
        }
        XCTAssertEqual(engine.activeVoiceCounts.sampler + engine.activeVoiceCounts.synth, 0)
        XCTAssertGreaterThan(tailPeak, 1e-4, "no reverb tail: the sends did not run")
    }
}
