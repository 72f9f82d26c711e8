import DSP
import Spectral

/// Stereo STFT analysis/resynthesis that leaves the spectrum alone (1024-point frames, overlap 4,
/// so the output is the input delayed by 1024 frames) and reports the strongest frequency.
/// Render-thread safe after init.
final class SpectralPassEffect {
    static let frameSize = 1024
    static let overlap = 4
    static var latencyFrames: Int { frameSize }

    private let left: STFT<DominantFrequencyFinder>
    private let right: STFT<DominantFrequencyFinder>

    init(sampleRate: Double) {
        let finder = DominantFrequencyFinder(sampleRate: sampleRate, frameSize: Self.frameSize)
        left = STFT(frameSize: Self.frameSize, overlap: Self.overlap, processor: finder)
        right = STFT(frameSize: Self.frameSize, overlap: Self.overlap, processor: finder)
    }

    func reset() {
        left.reset()
        right.reset()
    }

    func process(input: StereoBlock, output: StereoBlock, readouts: MicReadouts) {
        left.process(input.left, output.left, count: input.frames)
        right.process(input.right, output.right, count: input.frames)
        // The louder channel's peak is "the" dominant frequency.
        let l = left.processor, r = right.processor
        let f = l.peakMagnitude >= r.peakMagnitude ? l.frequencyHz : r.frequencyHz
        readouts.dominantFrequencyHz.store(Float(f))
    }
}
