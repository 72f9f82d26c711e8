import AudioTestSupport
import Foundation
import MIDI
import Testing

/// A voice whose pitch is above half the sample rate is silent (what it would play is an alias),
/// at 48 kHz and at 8 kHz, on the sampler and the synth; a song that ends with its pedal down
/// rings out instead of holding to the tail limit.
@Suite struct NyquistAndSongEndTests {
    static let rates = [48000.0, 8000.0]

    /// RPN 0 = 24 semitones, the bend at its top, then the note: `key` + 24 semitones.
    func bentNote(_ channel: UInt8, key: UInt8, bend: Int16) -> [(tick: Int, message: MIDIMessage)] {
        [(0, .controlChange(channel: channel, controller: 101, value: 0)),
         (0, .controlChange(channel: channel, controller: 100, value: 0)),
         (0, .controlChange(channel: channel, controller: 6, value: 24)),
         (0, .pitchBend(channel: channel, value: bend)),
         (0, .noteOn(channel: channel, note: key, velocity: 127)),
         (GMRender.ticks(0.5), .noteOff(channel: channel, note: key, velocity: 0))]
    }

    /// The highest key whose fundamental, bent up 24 semitones, lies above Nyquist, and its
    /// unbent pitch below it (the same note heard, so silence is the pitch's doing).
    func key(rate: Double) -> UInt8 {
        // 24 kHz is key 135.1, 4 kHz key 104.1: key + 24 above, key itself below.
        rate > 10000 ? 120 : 90
    }

    @Test(arguments: rates, [UInt8(0), 1])
    func aNoteBentAboveNyquistIsSilent(rate: Double, channel: UInt8) throws {
        var gm = GMRender()
        gm.rate = rate
        let k = key(rate: rate)
        let bent = try gm.render(bentNote(channel, key: k, bend: 8191))
        let straight = try gm.render(bentNote(channel, key: k, bend: 0))
        #expect(Measure.rms(straight.left) > 1e-4, "\(rate) Hz, channel \(channel + 1): key \(k) unbent sounds")
        let peak = Measure.peak(bent.peaks)
        #expect(peak == 0 || Measure.decibels(peak) < -120, "\(rate) Hz, channel \(channel + 1): key \(k) + 24 st: peak \(Measure.decibels(peak)) dBFS")
    }

    /// A bend that takes a sounding note above Nyquist fades it out within 2 ms (no click: the
    /// largest step is what the note itself makes) and brings it back when it comes down.
    @Test(arguments: rates)
    func aBendAcrossNyquistFadesTheNoteOutAndBackIn(rate: Double) throws {
        var gm = GMRender()
        gm.rate = rate
        let k = key(rate: rate)
        var song = bentNote(0, key: k, bend: 0)
        song.removeLast()
        song += [(GMRender.ticks(0.5), .pitchBend(channel: 0, value: 8191)),
                 (GMRender.ticks(1.0), .pitchBend(channel: 0, value: 0)),
                 (GMRender.ticks(1.5), .noteOff(channel: 0, note: k, velocity: 0))]
        let out = try gm.render(song).peaks
        let gone = Measure.peak(out[gm.frame(0.5 + 0.010)..<gm.frame(1.0)])
        #expect(gone == 0 || Measure.decibels(gone) < -120, "\(rate) Hz: above Nyquist \(Measure.decibels(gone)) dBFS")
        #expect(Measure.rms(out[gm.frame(1.1)..<gm.frame(1.4)]) > 1e-4, "\(rate) Hz: back below Nyquist it sounds again")
    }

    /// An organ (it never decays) held by the sustain pedal when the song's events end: the
    /// pedal is lifted at the last event, the note releases and the render ends a few seconds
    /// later, without the tail-limit warning.
    @Test func aSongEndingWithThePedalDownRingsOut() throws {
        let song: [(tick: Int, message: MIDIMessage)] = [
            (0, .programChange(channel: 0, program: 16)),
            (0, .controlChange(channel: 0, controller: MIDIController.sustainPedal, value: 127)),
            (0, .noteOn(channel: 0, note: 60, velocity: 100)),
            (GMRender.ticks(0.5), .noteOff(channel: 0, note: 60, velocity: 0)),
        ]
        let gm = GMRender()
        let out = try gm.render(song)
        let seconds = Double(out.left.count) / gm.rate
        #expect(seconds < 0.5 + 12, "the render ends \(seconds - 0.5) s after the last event")
        #expect(out.summary.warnings.isEmpty, "\(out.summary.warnings)")
    }
}
