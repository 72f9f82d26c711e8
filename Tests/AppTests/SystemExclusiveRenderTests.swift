import AudioTestSupport
import Foundation
import MIDI
import Testing

/// The SysEx a General MIDI module acts on, in songs made here and read back by the SMF reader,
/// through the bundled instrument: each applied at its frame.
@Suite struct SystemExclusiveRenderTests {
    let gm = GMRender()

    /// How far `x` is from `reference` over `range`: the difference's RMS relative to the
    /// reference's, in dB (−∞ when identical).
    func differenceDecibels(_ x: [Float], _ reference: [Float], _ range: Range<Int>) -> Double {
        func at(_ y: [Float], _ i: Int) -> Float { i < y.count ? y[i] : 0 }
        let diff = range.map { at(x, $0) - at(reference, $0) }
        return Measure.decibels(Measure.rms(diff)) - Measure.decibels(Measure.rms(range.map { at(reference, $0) }))
    }

    static let resets: [SystemExclusive.Reset] = [.generalMIDI, .generalMIDI2, .gs, .xg]

    /// Program, volume, pan, expression, bend, bend range, tuning, bank, pedals and a GS drum
    /// assignment all set before the reset; after it, the same notes sound as on an instrument
    /// just started (within −60 dB), and the notes held before it have stopped.
    @Test(arguments: resets)
    func resetRestoresProgramsAndControllers(reset: SystemExclusive.Reset) throws {
        var before: [(tick: Int, message: MIDIMessage)] = []
        for channel: UInt8 in [0, 10] {
            before += [
                (0, .controlChange(channel: channel, controller: 0, value: 1)),
                (0, .programChange(channel: channel, program: 48)),
                (0, .controlChange(channel: channel, controller: 7, value: 20)),
                (0, .controlChange(channel: channel, controller: 10, value: 0)),
                (0, .controlChange(channel: channel, controller: 11, value: 60)),
                (0, .controlChange(channel: channel, controller: 101, value: 0)),
                (0, .controlChange(channel: channel, controller: 100, value: 2)),
                (0, .controlChange(channel: channel, controller: 6, value: 70)),  // coarse tuning +6
                (0, .pitchBend(channel: channel, value: 4000)),
                (0, .controlChange(channel: channel, controller: 64, value: 127)),
                (0, .noteOn(channel: channel, note: 60, velocity: 100)),
                (GMRender.ticks(0.5), .noteOff(channel: channel, note: 60, velocity: 0)),
            ]
        }
        before.append((0, .system(.rhythmPart(channel: 11, map: 1))))  // channel 12 a drum part
        let after: [(tick: Int, message: MIDIMessage)] = [0, 11].flatMap { (channel: UInt8) -> [(tick: Int, message: MIDIMessage)] in
            [(GMRender.ticks(1.5), .noteOn(channel: channel, note: 62, velocity: 100)),
             (GMRender.ticks(2.0), .noteOff(channel: channel, note: 62, velocity: 0))]
        }
        let reset = try gm.render(before + [(GMRender.ticks(1.0), .system(.reset(reset)))] + after)
        let fresh = try gm.render(after)
        let range = gm.frame(1.5)..<gm.frame(2.5)
        #expect(Measure.rms(fresh.left[range]) > 0.01, "the reference sounds")
        for (x, reference, side) in [(reset.left, fresh.left, "left"), (reset.right, fresh.right, "right")] {
            let difference = differenceDecibels(x, reference, range)
            #expect(difference < -60, "\(reset) \(side): after the reset the notes differ from a fresh start by \(difference) dB")
        }
        // The pedalled notes from before were let go by the reset: nothing between it and the new notes.
        let gap = Measure.peak(reset.peaks[(gm.frame(1.0) + gm.frame(0.05))..<gm.frame(1.5)])
        #expect(gap < 1e-4, "held notes stopped at the reset: peak \(Measure.decibels(gap)) dBFS after it")
    }

    /// GS "use for rhythm part" turns channel 11 into a drum part (kit 0 of bank 128, heard as the
    /// channel 10 kit is) and back to a melodic part playing program 0.
    @Test func rhythmPartMakesAChannelADrumPartAndBack() throws {
        let snare: UInt8 = 38
        func notes(_ channel: UInt8, at seconds: Double) -> [(tick: Int, message: MIDIMessage)] {
            [(GMRender.ticks(seconds), .noteOn(channel: channel, note: snare, velocity: 100)),
             (GMRender.ticks(seconds + 0.3), .noteOff(channel: channel, note: snare, velocity: 0))]
        }
        let song = try gm.render(
            [(0, .system(.reset(.gs))), (1, .system(.rhythmPart(channel: 10, map: 1)))] + notes(10, at: 0.5)
                + [(GMRender.ticks(1.5), .system(.rhythmPart(channel: 10, map: 0)))] + notes(10, at: 2.0))
        let drums = try gm.render(notes(9, at: 0.5))
        let melodic = try gm.render(notes(10, at: 2.0))
        let drumRange = gm.frame(0.5)..<gm.frame(1.4), melodicRange = gm.frame(2.0)..<gm.frame(3.0)
        let asDrums = differenceDecibels(song.left, drums.left, drumRange)
        let asMelodic = differenceDecibels(song.left, melodic.left, melodicRange)
        #expect(asDrums < -60, "channel 11 as a rhythm part plays the kit: \(asDrums) dB from channel 10's snare")
        #expect(asMelodic < -60, "back to a melodic part on program 0: \(asMelodic) dB from a melodic channel 11")
        #expect(differenceDecibels(drums.left, melodic.left, drumRange) > -20, "the kit and program 0 do sound different")
    }

    /// Universal master volume 8192/16383 = −12.04 dB on the 40·log10 law, from its frame; a GM
    /// reset brings it back to full.
    @Test func masterVolumeScalesTheWholeOutputAndResetRestoresIt() throws {
        let song: [(tick: Int, message: MIDIMessage)] = [
            (0, .programChange(channel: 0, program: 16)),  // an organ: a steady level to measure
            (0, .noteOn(channel: 0, note: 60, velocity: 100)),
            (GMRender.ticks(1.0), .system(.masterVolume(8192))),
            (GMRender.ticks(2.0), .system(.reset(.generalMIDI))),
            (GMRender.ticks(2.5), .programChange(channel: 0, program: 16)),
            (GMRender.ticks(2.5), .noteOn(channel: 0, note: 60, velocity: 100)),
            (GMRender.ticks(3.5), .noteOff(channel: 0, note: 60, velocity: 0)),
        ]
        let out = try gm.render(song).left
        func level(_ from: Double, _ to: Double) -> Double { Measure.decibels(Measure.rms(out[gm.frame(from)..<gm.frame(to)])) }
        let full = level(0.5, 1.0), turnedDown = level(1.5, 2.0), restored = level(3.0, 3.5)
        let expected = 40 * log10(8192.0 / 16383)
        #expect(abs(turnedDown - full - expected) < 0.1, "master volume: \(turnedDown - full) dB, expected \(expected) dB")
        #expect(abs(restored - full) < 0.1, "after the reset: \(restored - full) dB")
    }
}
