import DSP
import Testing

/// A part's send: its signal × CC91/127 (or CC93/127), a change ramped linearly over 10 ms.
@Suite struct SendBusTests {
    let rate = 48_000.0

    /// A constant 0.5 on both channels sent through `levels` for `blocks` 64-frame blocks.
    func send(_ levels: inout ChannelSends, blocks: Int, bus: SendBus, source: StereoBuffer) -> (reverb: [Float], chorus: [Float]) {
        var reverb: [Float] = [], chorus: [Float] = []
        for _ in 0..<blocks {
            bus.begin(frames: 64)
            bus.add(source.block(frames: 64), at: 0, levels: &levels)
            reverb += bus.reverbActive ? Array(UnsafeBufferPointer(start: bus.reverb.left, count: 64)) : Array(repeating: 0, count: 64)
            chorus += bus.chorusActive ? Array(UnsafeBufferPointer(start: bus.chorus.right, count: 64)) : Array(repeating: 0, count: 64)
        }
        return (reverb, chorus)
    }

    @Test func sendLevelsStartAtTheGMDefaultsAndRampOverTenMilliseconds() {
        let bus = SendBus(maxFrames: 64), source = StereoBuffer(capacity: 64)
        source.left.update(repeating: 0.5, count: 64)
        source.right.update(repeating: 0.5, count: 64)
        var levels = ChannelSends(sampleRate: rate)
        let before = send(&levels, blocks: 2, bus: bus, source: source)
        #expect(before.reverb.allSatisfy { abs($0 - 0.5 * 40 / 127) < 1e-7 })
        #expect(before.chorus.allSatisfy { $0 == 0 })
        levels.follow(reverbController: 0, chorusController: 127, snap: false)
        let after = send(&levels, blocks: 10, bus: bus, source: source)
        let ramp = Int(0.010 * rate)  // 480 frames
        for i in [0, 100, 240, 479] {
            #expect(abs(after.chorus[i] - 0.5 * Float(i + 1) / Float(ramp)) < 1e-5, "chorus send at frame \(i): \(after.chorus[i])")
            #expect(abs(after.reverb[i] - 0.5 * 40 / 127 * (1 - Float(i + 1) / Float(ramp))) < 1e-5)
        }
        #expect(after.chorus[ramp...].allSatisfy { $0 == 0.5 } && after.reverb[ramp...].allSatisfy { $0 == 0 })
        let steps = zip(after.chorus.dropFirst(), after.chorus).map { abs($0 - $1) }
        #expect(steps.max()! <= 0.5 / Float(ramp) + 1e-6, "no zipper: the largest step is one ramp increment")
        // Once the reverb send is 0 the bus stays inactive: nothing to clear, nothing to run.
        bus.begin(frames: 64)
        bus.add(source.block(frames: 64), at: 0, levels: &levels)
        #expect(!bus.reverbActive && bus.chorusActive)
    }
}
