import DSP
import Spectral

/// Stereo STFT analysis/resynthesis that leaves the spectrum alone (1024-point frames, overlap 4,
/// so the output is the input delayed by 1024 frames) and reports the strongest frequency.
/// Render-thread safe after init.
final class SpectralPassEffect {
    static var frameSize: Int { 1024 }
    static var overlap: Int { 4 }
    static var latencyFrames: Int { frameSize }

    /// The two transforms; the render path uses the unretained references below.
    private let transforms: (STFT<DominantFrequencyFinder>, STFT<DominantFrequencyFinder>)
    private let left: RenderRef<STFT<DominantFrequencyFinder>>
    private let right: RenderRef<STFT<DominantFrequencyFinder>>

    init(sampleRate: Double) {
        let finder = DominantFrequencyFinder(sampleRate: sampleRate, frameSize: Self.frameSize)
        transforms = (STFT(frameSize: Self.frameSize, overlap: Self.overlap, processor: finder),
                      STFT(frameSize: Self.frameSize, overlap: Self.overlap, processor: finder))
        left = RenderRef(transforms.0)
        right = RenderRef(transforms.1)
    }

    @_noAllocation
    func reset() {
        left { SpectralRender.reset($0) }
        right { SpectralRender.reset($0) }
    }

    @_noAllocation
    func process(input: StereoBlock, output: StereoBlock, dominantFrequencyHz: RenderRef<PublishedFloat>) {
        let frames = input.frames
        left { SpectralRender.process($0, input.left, output.left, count: frames) }
        right { SpectralRender.process($0, input.right, output.right, count: frames) }
        // The louder channel's peak is "the" dominant frequency.
        let l = left { $0.processor }, r = right { $0.processor }
        let f = l.peakMagnitude >= r.peakMagnitude ? l.frequencyHz : r.frequencyHz
        dominantFrequencyHz { $0.store(Float(f)) }
    }
}
