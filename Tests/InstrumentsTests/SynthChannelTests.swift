import Foundation
import AudioTestSupport
import DSP
import Instruments
import MIDI
import Testing

/// The synth's 16 channels: each its own volume, pan, expression, bend (with RPN 0 range) and
/// pedals. Controllers on channel 3 change nothing of channel 4, measured in the output.
@Suite struct SynthChannelTests {
    let rate = SynthRig.rate
    let block = 64

    /// Renders `seconds` in 64-frame blocks, applying each message at the start of the block
    /// holding its time. Returns left and right.
    func render(_ events: [(seconds: Double, message: MIDIMessage)], seconds: Double) -> (left: [Float], right: [Float]) {
        let synth = SineSynth(sampleRate: rate, maxFrames: block, maxVoices: 16)
        let buffer = StereoBuffer(capacity: block)
        var left: [Float] = [], right: [Float] = []
        var next = 0
        let sorted = events.sorted { $0.seconds < $1.seconds }
        while left.count < Int(seconds * rate) {
            while next < sorted.count && Int(sorted[next].seconds * rate) < left.count + block {
                synth.handle(sorted[next].message)
                next += 1
            }
            let b = buffer.block(frames: block)
            b.clear()
            synth.render(into: b)
            left += UnsafeBufferPointer(start: b.left, count: block)
            right += UnsafeBufferPointer(start: b.right, count: block)
        }
        return (left, right)
    }

    func cc(_ channel: UInt8, _ number: UInt8, _ value: UInt8) -> MIDIMessage { .controlChange(channel: channel, controller: number, value: value) }

    @Test func controllersOnChannel3LeaveChannel4Untouched() throws {
        let channel3: [(seconds: Double, message: MIDIMessage)] = [
            (0, .noteOn(channel: 2, note: 57, velocity: 100)),
            (0.5, cc(2, MIDIController.volume, 30)),
            (1.0, cc(2, MIDIController.pan, 0)),
            (1.5, cc(2, 101, 0)), (1.5, cc(2, 100, 0)), (1.5, cc(2, 6, 7)), (1.5, .pitchBend(channel: 2, value: 8191)),
            (2.0, cc(2, MIDIController.sostenutoPedal, 127)), (2.1, .noteOff(channel: 2, note: 57, velocity: 0)),
            (2.6, cc(2, MIDIController.sostenutoPedal, 0)),
        ]
        let channel4: [(seconds: Double, message: MIDIMessage)] = [(0, .noteOn(channel: 3, note: 69, velocity: 100))]
        let both = render(channel3 + channel4, seconds: 3.2)
        let only3 = render(channel3, seconds: 3.2)
        let only4 = render(channel4, seconds: 3.2)
        for i in both.left.indices {
            #expect(abs(both.left[i] - only3.left[i] - only4.left[i]) < 1e-6)
            #expect(abs(both.right[i] - only3.right[i] - only4.right[i]) < 1e-6)
        }
        func seconds(_ a: Double, _ b: Double) -> Range<Int> { Int(a * rate)..<Int(b * rate) }
        // Channel 4 measured in the mix, both sides, while channel 3 moves: level as alone.
        for window in [seconds(0.6, 1.0), seconds(1.6, 2.0), seconds(2.2, 3.2)] {
            for (mix, alone) in [(both.left, only4.left), (both.right, only4.right)] {
                let reference = Measure.amplitude(alone[window], at: 440, sampleRate: rate)
                #expect(reference > 0.05, "level floor")
                #expect(abs(Measure.decibels(Measure.amplitude(mix[window], at: 440, sampleRate: rate) / reference)) < 0.05)
            }
        }
        let pitch = try #require(Measure.frequency(both.left[seconds(1.6, 2.0)], sampleRate: rate, guess: 440))
        #expect(abs(Measure.cents(pitch, relativeTo: 440)) < 0.5)
        // Channel 3 alone: CC7 30 is 40·log10(30/100) dB below GM's starting 100, CC10 0 is hard left, RPN 0 = 7 semitones,
        // the sostenuto pedal holds its note after note-off until the pedal lifts.
        let full = Measure.amplitude(only3.left[seconds(0.1, 0.5)], at: 220, sampleRate: rate)
        let quiet = Measure.amplitude(only3.left[seconds(0.6, 1.0)], at: 220, sampleRate: rate)
        #expect(abs(Measure.decibels(quiet / full) - 40 * log10(30.0 / 100)) < 0.1)
        #expect(Measure.peak(only3.right[seconds(1.05, 1.5)]) < 1e-4)
        let bent = 220 * pow(2, 7.0 / 12 * 8191 / 8192)
        let measured = try #require(Measure.frequency(only3.left[seconds(1.6, 2.0)], sampleRate: rate, guess: bent))
        #expect(abs(Measure.cents(measured, relativeTo: bent)) < 0.5)
        #expect(Measure.rms(only3.left[seconds(2.2, 2.6)]) > 0.005, "held by sostenuto")
        #expect(Measure.peak(only3.left[seconds(3.0, 3.2)]) < 1e-4, "released when the pedal lifted")
        Measure.expectNoClick(both.left)
    }

    /// Sostenuto pressed while a key is down and lifted while it is still down: the key's later
    /// note-off releases the note (the latch ends with the pedal). Found by the 1,000,000-event flood.
    @Test func sostenutoLiftedBeforeTheKeyLeavesNoStuckNote() {
        func seconds(_ a: Double, _ b: Double) -> Range<Int> { Int(a * rate)..<Int(b * rate) }
        let out = render([
            (0, .noteOn(channel: 0, note: 69, velocity: 100)), (0.1, cc(0, MIDIController.sostenutoPedal, 127)),
            (0.2, cc(0, MIDIController.sostenutoPedal, 0)), (0.4, .noteOff(channel: 0, note: 69, velocity: 0)),
        ], seconds: 1.5)
        #expect(Measure.rms(out.left[seconds(0.25, 0.4)]) > 0.005, "sounding while the key is down")
        #expect(Measure.peak(out.left[seconds(1.2, 1.5)]) < 1e-4, "released by its note-off (0.3 s release)")
    }
}
