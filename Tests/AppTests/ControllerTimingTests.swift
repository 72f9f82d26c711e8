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

    /// The attack (first 10 ms) of `note` in `song`, against the same note on an untouched part
    /// (CC7 at its default 100) lowered by the CC7 law, 40·log10(v/100): the level a steady CC7 = v
    /// gives. In dB, 0 when they agree. (A reference rendered with CC7 sent earlier would not do:
    /// before this was fixed, an idle engine froze the ramp, and every first note after silence
    /// started from the stale level.)
    func attackError(_ song: [(tick: Int, message: MIDIMessage)], channel: UInt8, at seconds: Double, volume: UInt8) throws -> Double {
        let (a, b) = (try gm.render(song), try gm.render(note(channel, at: seconds)))
        let attack = gm.frame(seconds)..<gm.frame(seconds + 0.010)
        let measured = Measure.decibels(Measure.rms(a.left[attack]))
        return measured - Measure.decibels(Measure.rms(b.left[attack])) - 40 * log10(Double(volume) / 100)
    }

    /// CC7 = 40 on the note's tick: its attack has a steady CC7 = 40's level within 0.5 dB.
    @Test(arguments: parts)
    func volumeSetOnTheNoteTickGivesTheAttackItsLevel(channel: UInt8) throws {
        let song = [(0, .controlChange(channel: channel, controller: MIDIController.volume, value: 40))] + note(channel, at: 0)
        let error = try attackError(song, channel: channel, at: 0, volume: 40)
        #expect(abs(error) < 0.5, "channel \(channel + 1): the attack is \(error) dB off a steady CC7 = 40")
    }

    /// CC7 moved (127 → 20) while the part is silent, long before its next note: that note starts
    /// at the new value, within 0.5 dB, not from a ramp out of the old one.
    @Test(arguments: parts)
    func aNewNoteStartsAtTheCurrentValueAfterAnEarlierNote(channel: UInt8) throws {
        let song = [(0, .controlChange(channel: channel, controller: MIDIController.volume, value: 127))] + note(channel, at: 0, for: 0.2)
            + [(GMRender.ticks(1.0), .controlChange(channel: channel, controller: MIDIController.volume, value: 20))] + note(channel, at: 4.0)
        let error = try attackError(song, channel: channel, at: 4.0, volume: 20)
        #expect(abs(error) < 0.5, "channel \(channel + 1): the attack is \(error) dB off a steady CC7 = 20")
    }

    /// CC7 starts at 100: an untouched part plays as one with CC7 = 100 sent, bit for bit.
    @Test(arguments: parts)
    func volumeStartsAt100(channel: UInt8) throws {
        let untouched = try gm.render(note(channel, at: 0))
        let at100 = try gm.render([(0, .controlChange(channel: channel, controller: MIDIController.volume, value: 100))] + note(channel, at: 0))
        #expect(Measure.rms(untouched.left) > 0.001)
        // Counted, not compared with ==: Swift Testing would print both arrays.
        let differing = zip(untouched.left, at100.left).filter { $0 != $1 }.count
        #expect(untouched.left.count == at100.left.count && differing == 0, "\(differing) samples differ")
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
