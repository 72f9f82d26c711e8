import AudioTestSupport
import Foundation
import MIDI
import Testing

/// Channel controllers as a General MIDI module applies them: values sent while a part is silent
/// hold from their frame (no ramp from the old value audible on the next note), CC7 starts at
/// 100, and the mode messages CC124–127 release the channel's notes. Sampler (channel 1, Keys)
/// and synth (channel 2, which the bundled instrument starts on the sine synth).
@Suite struct ControllerTimingTests {
    let gm = GMRender()
    static let parts: [UInt8] = [0, 1]

    func note(_ channel: UInt8, at seconds: Double, for length: Double = 0.5, key: UInt8 = 60) -> [(tick: Int, message: MIDIMessage)] {
        [(GMRender.ticks(seconds), .noteOn(channel: channel, note: key, velocity: 100)),
         (GMRender.ticks(seconds + length), .noteOff(channel: channel, note: key, velocity: 0))]
    }

    /// CC7 = 0 (or CC11 = 0) on the note's own tick, before it: silent from the first frame.
    @Test(arguments: parts, [MIDIController.volume, MIDIController.expression])
    func zeroLevelBeforeTheFirstNoteIsSilentFromTheFirstFrame(channel: UInt8, controller: UInt8) throws {
        let out = try gm.render([(0, .controlChange(channel: channel, controller: controller, value: 0))] + note(channel, at: 0))
        let peak = Measure.peak(out.peaks)
        #expect(peak == 0 || Measure.decibels(peak) < -120, "channel \(channel + 1) CC\(controller) = 0: peak \(Measure.decibels(peak)) dBFS")
    }

    /// CC10 = 0 (hard left) before the first note: nothing on the right from the first frame.
    @Test(arguments: parts)
    func panBeforeTheFirstNoteHoldsFromTheFirstFrame(channel: UInt8) throws {
        let out = try gm.render([(0, .controlChange(channel: channel, controller: MIDIController.pan, value: 0))] + note(channel, at: 0))
        let right = Measure.peak(out.right)
        #expect(Measure.rms(out.left) > 0.001, "the note sounds on the left")
        #expect(right == 0 || Measure.decibels(right) < -120, "channel \(channel + 1) right: peak \(Measure.decibels(right)) dBFS")
    }

    /// CC7 = 40 on the note's tick: its attack (first 10 ms) has the level of the same note
    /// struck long after CC7 = 40 was set, within 0.5 dB.
    @Test(arguments: parts)
    func volumeSetOnTheNoteTickGivesTheAttackItsLevel(channel: UInt8) throws {
        let volume: (tick: Int, message: MIDIMessage) = (0, .controlChange(channel: channel, controller: MIDIController.volume, value: 40))
        let sameTick = try gm.render([volume] + note(channel, at: 0))
        let steady = try gm.render([volume] + note(channel, at: 1))
        let attack = 0..<gm.frame(0.010)
        let a = Measure.decibels(Measure.rms(sameTick.left[attack]))
        let b = Measure.decibels(Measure.rms(steady.left[gm.frame(1.0)...].prefix(attack.count)))
        #expect(abs(a - b) < 0.5, "channel \(channel + 1): attack \(a) dBFS with CC7 on its tick, \(b) dBFS with CC7 set long before")
    }

    /// A part is quiet when nothing sounds but CC7 moves on it, then a note: it starts at the
    /// new value, not from a ramp out of the old one (here 127 → 20 a frame before the note).
    @Test(arguments: parts)
    func aNewNoteStartsAtTheCurrentValueAfterAnEarlierNote(channel: UInt8) throws {
        let loud: (tick: Int, message: MIDIMessage) = (0, .controlChange(channel: channel, controller: MIDIController.volume, value: 127))
        let quiet = GMRender.ticks(2.0)
        let song = [loud] + note(channel, at: 0, for: 0.2) + [(quiet, .controlChange(channel: channel, controller: MIDIController.volume, value: 20))]
            + note(channel, at: 2.0)
        let steady = [(0, .controlChange(channel: channel, controller: MIDIController.volume, value: 20))] + note(channel, at: 2.0)
        let (a, b) = (try gm.render(song), try gm.render(steady))
        let attack = gm.frame(2.0)..<gm.frame(2.010)
        let (x, y) = (Measure.decibels(Measure.rms(a.left[attack])), Measure.decibels(Measure.rms(b.left[attack])))
        #expect(abs(x - y) < 0.5, "channel \(channel + 1): attack \(x) dBFS after a CC7 change, \(y) dBFS steady")
    }

    /// CC7 starts at 100: an untouched part plays as one with CC7 = 100 sent, bit for bit.
    @Test(arguments: parts)
    func volumeStartsAt100(channel: UInt8) throws {
        let untouched = try gm.render(note(channel, at: 0))
        let at100 = try gm.render([(0, .controlChange(channel: channel, controller: MIDIController.volume, value: 100))] + note(channel, at: 0))
        #expect(Measure.rms(untouched.left) > 0.001)
        #expect(untouched.left == at100.left)
    }

    /// Omni off/on, mono and poly (CC124–127) end the channel's notes as CC123 does: a held note
    /// (an organ on the sampler, the synth's sustain) is down 60 dB a second after the message.
    @Test(arguments: parts, [UInt8](124...127))
    func modeMessagesReleaseTheChannelsNotes(channel: UInt8, controller: UInt8) throws {
        let organ: [(tick: Int, message: MIDIMessage)] = channel == 0 ? [(0, .programChange(channel: channel, program: 16))] : []
        let song: [(tick: Int, message: MIDIMessage)] = organ + [
            (0, .noteOn(channel: channel, note: 60, velocity: 100)),
            (GMRender.ticks(0.5), .controlChange(channel: channel, controller: controller, value: 0)),
            (GMRender.ticks(4.0), .noteOff(channel: channel, note: 60, velocity: 0)),
        ]
        let out = try gm.render(song).left
        let held = Measure.rms(out[gm.frame(0.2)..<gm.frame(0.5)])
        let after = Measure.rms(out[gm.frame(1.5)..<gm.frame(2.0)])
        #expect(held > 0.001, "the note sounds")
        #expect(Measure.decibels(after) - Measure.decibels(held) < -60,
                "channel \(channel + 1) CC\(controller): \(Measure.decibels(after) - Measure.decibels(held)) dB a second after")
    }
}
