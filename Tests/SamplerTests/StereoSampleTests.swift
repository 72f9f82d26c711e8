import AudioTestSupport
import Sampler
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Stereo waveforms keep their channels apart (pan acts as a balance on top).
@Suite struct StereoSampleTests {
    func stereoWaveform() throws -> SamplerWaveform {
        let frames = 48_000
        let left = Measure.sine(frequency: 480, sampleRate: testSampleRate, count: frames)
        let right = Measure.sine(frequency: 720, sampleRate: testSampleRate, count: frames)
        return try SamplerWaveform(channels: [left, right], sampleRate: testSampleRate, naturalLoop: SamplerLoop(startFrame: 0, endFrame: frames))
    }

    @Test(arguments: [InterpolationQuality.realtime, .high])
    func channelsStaySeparate(quality: InterpolationQuality) throws {
        let program = SamplerProgram.single(try stereoWaveform(), rootKey: 60, layer: plainLayer())
        let out = render(instrument(playing: program, quality: quality), frames: 24_000, events: [At(0, noteOn(67))])
        let left = Array(out.left[4_800...]), right = Array(out.right[4_800...])
        let up = pow(2, 7.0 / 12)
        // 0.5 amplitude × centre pan gain on each side, nothing of the other channel.
        #expect(abs(Measure.amplitude(left, at: 480 * up, sampleRate: testSampleRate) - 0.5 * Double(centrePanGain)) < 0.01)
        #expect(abs(Measure.amplitude(right, at: 720 * up, sampleRate: testSampleRate) - 0.5 * Double(centrePanGain)) < 0.01)
        #expect(Measure.amplitude(left, at: 720 * up, sampleRate: testSampleRate) < 1e-3)
        #expect(Measure.amplitude(right, at: 480 * up, sampleRate: testSampleRate) < 1e-3)
    }

    @Test func filteredStereoStaysSeparate() throws {
        var layer = plainLayer()
        layer.filter = SamplerFilterSettings(isEnabled: true, cutoffHz: 5_000, resonanceDecibels: 0)
        let program = SamplerProgram.single(try stereoWaveform(), rootKey: 60, layer: layer)
        let out = render(instrument(playing: program), frames: 24_000, events: [At(0, noteOn(60))])
        #expect(Measure.amplitude(Array(out.left[4_800...]), at: 720, sampleRate: testSampleRate) < 1e-3)
        #expect(Measure.amplitude(Array(out.right[4_800...]), at: 720, sampleRate: testSampleRate) > 0.3)
    }
}
