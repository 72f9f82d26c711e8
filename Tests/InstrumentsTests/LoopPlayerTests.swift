import AudioTestSupport
import DSP
import Instruments
import Testing

@Suite struct LoopPlayerTests {
    let rate = 48000.0

    /// A loop of exactly 100 periods of 480 Hz: its end flows into its start.
    func periodicLoop() -> LoopSample {
        LoopSample(name: "sine", channels: [Measure.sine(frequency: 480, sampleRate: rate, count: 10000, amplitude: 0.5)])!
    }

    func play(_ player: LoopPlayer, frames: Int, block: Int = 64) -> [Float] {
        let buffer = StereoBuffer(capacity: block)
        var out: [Float] = []
        while out.count < frames {
            let b = buffer.block(frames: min(block, frames - out.count))
            b.clear()
            player.render(into: b)
            out.append(contentsOf: UnsafeBufferPointer(start: b.left, count: b.frames))
        }
        return out
    }

    @Test func seamIsContinuousAcrossManyWraps() {
        let player = LoopPlayer(sample: periodicLoop(), sampleRate: rate)
        player.setPlaying(true)
        let out = play(player, frames: 55000, block: 100)
        Measure.expectNoClick(out[100...])
        #expect(abs(Measure.zeroCrossingFrequency(out[1000...], sampleRate: rate)! - 480) < 0.01)
    }

    @Test func startsStoppedAndStartsAndStopsWithoutAClick() {
        let player = LoopPlayer(sample: periodicLoop(), sampleRate: rate)
        #expect(player.isSilent)
        #expect(Measure.peak(play(player, frames: 1000)) == 0)
        player.setPlaying(true)
        var out = play(player, frames: 4800)
        player.setPlaying(false)
        out += play(player, frames: 4800)
        #expect(player.isSilent)
        #expect(Measure.peak(out[(4800 + 600)...]) == 0)
        // A sine starting at phase 0 under a 1 ms fade-in, and a 10 ms fade-out, stay smooth.
        Measure.expectNoClick(out)
    }

    @Test func monoFilesPlayOnBothChannels() {
        let player = LoopPlayer(sample: periodicLoop(), sampleRate: rate)
        player.setPlaying(true)
        let buffer = StereoBuffer(capacity: 256)
        let b = buffer.block(frames: 256)
        b.clear()
        player.render(into: b)
        #expect((0..<256).allSatisfy { b.left[$0] == b.right[$0] })
    }
}
