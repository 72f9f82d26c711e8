import AudioTestSupport
import MIDI
import Testing

/// A render's levels live only while the song uses each region (`LevelSchedule`): withdrawn after
/// a use, rebuilt before the next, or taken back while a voice still holds them. None of it may
/// change a sample: the render with levels rebuilt after every silence equals the one that keeps
/// them for the whole song.
@Suite struct LevelScheduleRenderTests {
    @Test func rebuiltLevelsRenderTheSameSamplesAsLevelsKept() throws {
        // An octave up (the levels matter: plain frames would alias), struck at 0, 1.5 and 4 s;
        // the first note is still held when the second strikes.
        let on = MIDIMessage.noteOn(channel: 0, note: 72, velocity: 100), off = MIDIMessage.noteOff(channel: 0, note: 72, velocity: 0)
        let song = try GMRender.song([
            (0, on), (GMRender.ticks(1.5), .noteOn(channel: 0, note: 72, velocity: 90)), (GMRender.ticks(2.5), off),
            (GMRender.ticks(4), on), (GMRender.ticks(4.5), off),
        ])
        var render = GMRender()
        render.levelGapSeconds = 1_000
        let kept = try render.render(song)
        render.levelGapSeconds = 1
        let rebuilt = try render.render(song)
        #expect(Measure.peak(kept.left) > 0.01, "the notes sound")
        #expect(kept.left.count == rebuilt.left.count)
        #expect(kept.left == rebuilt.left && kept.right == rebuilt.right)
        #expect(rebuilt.summary.warnings.isEmpty)
    }
}
