import AudioTestSupport
import Foundation
import Engine
import MIDI
import Testing

/// Reverb and chorus sends measured on the engine's output: parts (the synth here) send with
/// CC91/CC93, the returns join the dry mix before the master stage.
@Suite struct SendEffectsTests {
    let rate = EngineRig.rate
    /// A 3 ms synth blip: 1 ms attack, 2 ms decay to silence, released at once (ends by 8 ms).
    let blip = ["synth.attack=0.001", "synth.decay=0.002", "synth.sustain=0", "synth.release=0.005"]
    let noteFrame = 960

    func cc(_ controller: UInt8, _ value: UInt8, channel: UInt8 = 0) -> MIDIMessage {
        .controlChange(channel: channel, controller: controller, value: value)
    }

    /// The blip on channel 1 with the given sends (set 20 ms before it, so their ramps are over;
    /// nil: not sent, the GM default applies).
    func blipResponse(reverbSend: UInt8?, chorusSend: UInt8 = 0, settings: [String], seconds: Double) throws -> (left: [Float], right: [Float]) {
        let rig = try EngineRig(settings: blip + settings)
        let sends = (reverbSend.map { [(0, cc(MIDIController.reverbSend, $0))] } ?? []) + [(0, cc(MIDIController.chorusSend, chorusSend))]
        return rig.render(frames: noteFrame + Int(seconds * rate), events: sends + [
            (noteFrame, .noteOn(channel: 0, note: 84, velocity: 127)), (noteFrame + 144, .noteOff(channel: 0, note: 84, velocity: 0)),
        ])
    }

    /// T30 by Schroeder integration of the engine output from 20 ms after the note (the dry blip
    /// is over by then), undamped so every frequency of the blip decays at the set time.
    @Test(arguments: [0.8, 2.0])
    func reverbDecayOnTheEngineOutputMatchesItsSetting(decay: Double) throws {
        let out = try blipResponse(reverbSend: 127, settings: ["fx.reverb.decay=\(decay)", "fx.reverb.hfratio=1"], seconds: 1.4 * decay + 0.5)
        for channel in [out.left, out.right] {
            let tail = Array(channel[(noteFrame + 960)...])
            let t30 = Measure.schroederRT60(tail, sampleRate: rate, from: -5, to: -35)
            #expect(abs(t30 / decay - 1) < 0.10, "T30 \(t30) s for a \(decay) s setting")
        }
    }

    /// CC91 = 0: after the blip's own release the output is silent; with CC91 = 127 a tail sounds.
    @Test func noSendMeansNoTail() throws {
        let dry = try blipResponse(reverbSend: 0, settings: [], seconds: 0.5)
        let wet = try blipResponse(reverbSend: 127, settings: [], seconds: 0.5)
        let after = noteFrame + 960  // 20 ms after the note-on: the blip ended at 8 ms
        #expect(Measure.peak(dry.left[..<after]) > 0.1, "the blip itself must sound")
        #expect(Measure.peak(dry.left[after...]) == 0 && Measure.peak(dry.right[after...]) == 0)
        let tailLevel = Measure.decibels(Measure.rms(wet.left[(after + 4800)..<(after + 14400)]))
        #expect(tailLevel > -70, "reverb tail \(tailLevel) dBFS")
    }

    /// The reverb is linear, so the tail scales exactly with the send: 20·log10(CC91/127) dB.
    @Test func reverbSendLevelFollowsCC91InDecibels() throws {
        func tailDecibels(_ send: UInt8?) throws -> Double {
            let out = try blipResponse(reverbSend: send, settings: ["fx.reverb.decay=1"], seconds: 0.6)
            return Measure.decibels(Measure.rms(out.left[(noteFrame + 2400)...]))
        }
        let full = try tailDecibels(127)
        #expect(full > -70, "tail \(full) dBFS")
        for send: UInt8 in [100, 64, 16] {
            let change = try tailDecibels(send) - full
            let expected = 20 * log10(Double(send) / 127)
            #expect(abs(change - expected) < 0.05, "CC91=\(send): \(change) dB, expected \(expected)")
        }
        // No CC91 at all: the GM default, 40.
        let byDefault = try tailDecibels(nil) - full
        #expect(abs(byDefault - 20 * log10(40.0 / 127)) < 0.05, "default send: \(byDefault) dB")
    }

    /// The chorus return alone (the render with CC93 = 127 minus the one with CC93 = 0, both
    /// without reverb) behind a held 49 Hz synth note: two voices spread hard left/right, so the
    /// left channel is voice 0 alone, whose delay swings base ± depth at the set rate.
    @Test func chorusDepthAndRateAreMeasuredThroughTheEngine() throws {
        let (rateHz, depth, base) = (2.0, 3.0, 10.0)
        let settings = ["synth.sustain=1", "fx.chorus.voices=2", "fx.chorus.spread=1", "fx.chorus.rate=\(rateHz)",
                        "fx.chorus.depth=\(depth)", "fx.chorus.delay=\(base)"]
        func render(chorusSend: UInt8) throws -> [Float] {
            let rig = try EngineRig(settings: settings)
            return rig.render(frames: 3 * Int(rate), events: [
                (0, cc(MIDIController.reverbSend, 0)), (0, cc(MIDIController.chorusSend, chorusSend)),
                (0, .noteOn(channel: 0, note: 31, velocity: 127)),
            ]).left
        }
        let withChorus = try render(chorusSend: 127), without = try render(chorusSend: 0)
        let wet = zip(withChorus, without).map { $0 - $1 }
        let probeHz = Measure.noteFrequency(31)
        let hop = 16
        let track = Array(Measure.delayTrack(wet, probeHz: probeHz, sampleRate: rate, hop: hop).dropFirst(Int(0.1 * rate) / hop))
        let (lo, hi) = (track.min()!, track.max()!)
        let measuredDepth = (hi - lo) / 2, measuredBase = (hi + lo) / 2
        let measuredRate = Measure.zeroCrossingFrequency(track.map { Float($0 - measuredBase) }, sampleRate: rate / Double(hop))!
        // One probe period of averaging shrinks the swing by sinc(π·rate/probe).
        let x = Double.pi * rateHz / probeHz
        #expect(abs(measuredDepth / (depth * sin(x) / x) - 1) < 0.03, "depth \(measuredDepth) ms, set \(depth)")
        #expect(abs(measuredRate / rateHz - 1) < 0.01, "rate \(measuredRate) Hz, set \(rateHz)")
        // The synth's sine leads the probe by one sample (its phase starts one step in).
        #expect(abs(measuredBase - base + 1000 / rate) < 0.05, "base \(measuredBase) ms, set \(base)")
    }

    /// Idle: with every send at 0 the engine goes idle once the master filters have rung out;
    /// with the reverb sent it stays busy through the tail and goes idle after it.
    @Test func theStageIsIdleWhenNothingSendsAndTheTailIsOver() throws {
        func idleAfter(reverbSend: UInt8, seconds: Double) throws -> Bool {
            let rig = try EngineRig(settings: blip + ["fx.reverb.decay=0.5"])
            _ = rig.render(frames: noteFrame + Int(seconds * rate), events: [
                (0, cc(MIDIController.reverbSend, reverbSend)),
                (noteFrame, .noteOn(channel: 0, note: 84, velocity: 127)), (noteFrame + 144, .noteOff(channel: 0, note: 84, velocity: 0)),
            ])
            return rig.engine.isIdle
        }
        #expect(try idleAfter(reverbSend: 0, seconds: 0.6))
        #expect(try !idleAfter(reverbSend: 127, seconds: 1.0))
        // Tail: 0.25 s pre-delay room + diffusers + longest line + 2 × RT60, then the master ring-out.
        #expect(try idleAfter(reverbSend: 127, seconds: 2.0))
    }

    /// Muting a bus mutes its parts' sends too: no reverb from a muted synth.
    @Test func aMutedBusSendsNothing() throws {
        let out = try blipResponse(reverbSend: 127, settings: ["bus.synth.mute=on"], seconds: 0.5)
        #expect(Measure.peak(out.left) == 0 && Measure.peak(out.right) == 0)
    }

    @Test func sendParametersAreRangeChecked() throws {
        let engine = try EngineRig().engine
        #expect(throws: ParameterError.self) { try engine.parameters.apply(assignment: "fx.reverb.decay=40") }
        #expect(throws: ParameterError.self) { try engine.parameters.apply(assignment: "fx.chorus.voices=5") }
        try engine.parameters.apply(assignment: "fx.reverb.predelay=40")
        #expect(engine.parameters.formattedValue(engine.parameters.index(of: "fx.reverb.predelay")!) == "40 ms")
    }
}
