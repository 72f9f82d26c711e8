import AudioTestSupport
import DSP
import Foundation
import MIDI
import Sampler
import Testing

/// The sampler's output does not depend on how the host cuts time into blocks: the same notes and
/// events rendered at block sizes 1, 3, 100 and 256 null against the 64-frame render.
@Suite struct BlockSizeNullTests {
    static let frames = 19_200
    /// Notes transposed both ways, overlapping, a held sustain pedal, releases inside blocks.
    static let events: [At] = [
        At(0, noteOn(60, 100)), At(37, noteOn(67, 80)), At(1_001, noteOn(48, 127)), At(2_500, controlChange(64, 127)),
        At(4_000, noteOff(60)), At(4_001, noteOff(67)), At(6_003, controlChange(64, 0)), At(7_777, noteOn(72, 90)),
        At(12_345, noteOff(48)), At(15_000, noteOff(72)),
    ]

    /// A 1-second harmonic tone at 220 Hz (root key 57), looped over its second half.
    static func program() throws -> SamplerProgram {
        let samples = (0..<48_000).map { n -> Float in
            let t = Double(n) / testSampleRate
            return Float(0.3 * sin(2 * Double.pi * 220 * t) + 0.1 * sin(2 * Double.pi * 660 * t))
        }
        let waveform = try SamplerWaveform(
            channels: [samples], sampleRate: testSampleRate, naturalLoop: SamplerLoop(startFrame: 24_000, endFrame: 48_000))
        var layer = plainLayer(attackSeconds: 0.01, releaseSeconds: 0.1)
        layer.lfo = nil
        return SamplerProgram.single(waveform, rootKey: 57, layer: layer)
    }

    @Test(arguments: [1, 3, 100, 256], [InterpolationQuality.realtime, .high])
    func blockSizeDoesNotChangeTheOutput(blockSize: Int, quality: InterpolationQuality) throws {
        let program = try Self.program()
        let reference = render(instrument(playing: program, quality: quality), frames: Self.frames, blockSize: 64, events: Self.events)
        let out = render(instrument(playing: program, quality: quality), frames: Self.frames, blockSize: blockSize, events: Self.events)
        #expect(out.left.count == reference.left.count)
        var worst = 0.0
        for (a, b) in zip(out.left + out.right, reference.left + reference.right) { worst = max(worst, Double(abs(a - b))) }
        #expect(worst < 1e-6, "block size \(blockSize): differs from the 64-frame render by up to \(worst)")
        #expect(Measure.rms(reference.left) > 0.05, "level floor: the notes sound")
        #expect(Measure.rms(out.left[8_000..<12_000]) > 0.05, "level floor: the block-size render sounds too")
    }
}
