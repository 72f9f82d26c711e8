import DSP
#if canImport(Glibc)
import Glibc
#endif

/// What an `STFT` does to each frame's spectrum: edit `spectrum` (`binCount` interleaved complex
/// bins of the windowed frame) in place. Called on the render thread: must be render-thread safe.
public protocol SpectralFrameProcessor {
    mutating func process(spectrum: UnsafeMutablePointer<Float>, binCount: Int)
    mutating func reset()
}

/// Mono short-time Fourier transform engine: periodic-Hann analysis and synthesis windows,
/// `overlap` frames per window length (≥ 4), weighted overlap-add with the exact normalisation,
/// so an untouched spectrum gives back the input delayed by `latencyFrames` (= `frameSize`),
/// from the first sample on. Accepts any number of samples per call.
///
/// Generic over the processor so the call is static (no existential on the render thread); the
/// real-time checks reject generic code, so its render path is checked in the specialisations
/// `SpectralRender` calls.
/// `init` allocates and plans FFTW (control thread); `process` and `reset` are render-thread safe.
public final class STFT<Processor: SpectralFrameProcessor> {
    public let frameSize: Int
    public let hopSize: Int
    /// Output lags input by this many frames.
    public var latencyFrames: Int { frameSize }
    public var processor: Processor

    let fft: RealFFT
    /// `fft`'s plans and buffers as the render path calls them (no retain).
    private let transform: RealFFT.Transform
    private let window: UnsafeMutablePointer<Float>
    /// Synthesis window × 1/(size · Σ w²): undoes FFTW's scaling and the overlapped windows.
    private let synthesisWindow: UnsafeMutablePointer<Float>
    private let inputRing: UnsafeMutablePointer<Float>
    private let accumulator: UnsafeMutablePointer<Float>
    private let ready: UnsafeMutablePointer<Float>
    private var inputIndex = 0
    private var hopPosition = 0

    /// `frameSize` a power of two; `overlap` 4 or more (power of two).
    public init(frameSize: Int, overlap: Int, processor: Processor, measurePlans: Bool = false) {
        precondition(frameSize.nonzeroBitCount == 1 && overlap >= 4 && frameSize % overlap == 0)
        self.frameSize = frameSize
        hopSize = frameSize / overlap
        self.processor = processor
        fft = RealFFT(size: frameSize, measure: measurePlans)
        transform = fft.transform
        window = .allocate(capacity: frameSize)
        synthesisWindow = .allocate(capacity: frameSize)
        // Σ over the overlapping frames of w² for a periodic Hann is 3·overlap/8 at every sample.
        let norm = 1 / (Float(frameSize) * 3 * Float(overlap) / 8)
        for n in 0..<frameSize {
            let w = Float(0.5 - 0.5 * cos(2 * Double.pi * Double(n) / Double(frameSize)))
            window[n] = w
            synthesisWindow[n] = w * norm
        }
        inputRing = .allocate(capacity: frameSize)
        accumulator = .allocate(capacity: frameSize)
        ready = .allocate(capacity: hopSize)
        inputRing.initialize(repeating: 0, count: frameSize)
        accumulator.initialize(repeating: 0, count: frameSize)
        ready.initialize(repeating: 0, count: hopSize)
    }

    deinit {
        window.deallocate()
        synthesisWindow.deallocate()
        inputRing.deallocate()
        accumulator.deallocate()
        ready.deallocate()
    }

    /// Transforms `count` samples from `input` to `output` (may be the same buffer). Render-thread safe.
    public func process(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, count: Int) {
        let mask = frameSize - 1
        for i in 0..<count {
            inputRing[inputIndex] = input[i]
            inputIndex = (inputIndex + 1) & mask
            output[i] = ready[hopPosition]
            hopPosition += 1
            if hopPosition == hopSize {
                hopPosition = 0
                runFrame()
            }
        }
    }

    /// Silence: clears every buffer and the processor's state. Render-thread safe.
    public func reset() {
        inputRing.update(repeating: 0, count: frameSize)
        accumulator.update(repeating: 0, count: frameSize)
        ready.update(repeating: 0, count: hopSize)
        inputIndex = 0
        hopPosition = 0
        processor.reset()
    }

    private func runFrame() {
        let mask = frameSize - 1
        let fft = transform
        let time = fft.time
        // inputIndex points at the oldest sample of the ring.
        for n in 0..<frameSize { time[n] = inputRing[(inputIndex + n) & mask] * window[n] }
        fft.forward()
        processor.process(spectrum: fft.spectrum, binCount: fft.binCount)
        fft.inverse()
        for n in 0..<frameSize { accumulator[n] += time[n] * synthesisWindow[n] }
        ready.copyFloats(from: accumulator, count: hopSize)
        accumulator.copyFloats(from: accumulator + hopSize, count: frameSize - hopSize)
        (accumulator + frameSize - hopSize).update(repeating: 0, count: hopSize)
    }
}

/// The STFTs' render path as the mic effects call it, one non-generic entry per processor: the
/// real-time checks reject a generic function, so `STFT.process`/`reset` are checked (`@_noAllocation`)
/// in these specialisations. Render thread.
public enum SpectralRender {
    @_noAllocation
    public static func process(
        _ stft: STFT<PhaseLockedPitchShift>, _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, count: Int
    ) {
        stft.process(input, output, count: count)
    }

    @_noAllocation
    public static func process(
        _ stft: STFT<DominantFrequencyFinder>, _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, count: Int
    ) {
        stft.process(input, output, count: count)
    }

    @_noAllocation
    public static func reset(_ stft: STFT<PhaseLockedPitchShift>) { stft.reset() }

    @_noAllocation
    public static func reset(_ stft: STFT<DominantFrequencyFinder>) { stft.reset() }
}
