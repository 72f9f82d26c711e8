import DSP

/// STFT frame processor that shifts pitch by `ratio` with Laroche–Dolson style peak-region
/// phase locking (J. Laroche, M. Dolson, "New phase-vocoder techniques for real-time pitch
/// shifting", 1999), instead of the classic per-bin phase vocoder.
///
/// Per frame: find the spectral peaks; split the spectrum into one region per peak (boundaries
/// at the lowest bin between neighbouring peaks); measure each peak's true frequency from its
/// phase advance since the last frame; move the whole region by the whole number of bins that
/// brings the peak nearest its shifted frequency; rotate every bin of the region by the one
/// phase that continues the matching output peak of the last frame at the shifted frequency.
/// Bins keep their phase relations to their peak (identity phase locking), which is what removes
/// the classic vocoder's "phasiness"; and only the peaks need `atan2`/`sincos`, which is why it
/// is several times cheaper than a per-bin vocoder.
///
/// Phases are taken at the frame centre (bins multiplied by (−1)^k), so a peak's phase does not
/// depend on which bin it lands in. All buffers are allocated in `init`; `process` is render-thread safe.
public struct PhaseLockedPitchShift: SpectralFrameProcessor {
    /// Frequency ratio (2^(semitones/12)); set between frames from the render thread.
    public var ratio: Float = 1
    public let frameSize: Int
    public let hopSize: Int
    /// Peaks weaker than this fraction of the strongest (power, ≈ −70 dB) are not tracked.
    static let peakFloor: Float = 1e-7

    /// Owns the state; the render path reaches it through `state` (no retain).
    private let storage: PhaseLockStorage
    private let state: RenderRef<PhaseLockStorage>

    public init(frameSize: Int, hopSize: Int) {
        self.frameSize = frameSize
        self.hopSize = hopSize
        storage = PhaseLockStorage(binCount: frameSize / 2 + 1)
        state = RenderRef(storage)
    }

    @_noAllocation
    public mutating func reset() { state { $0.reset() } }

    @_noAllocation
    public mutating func process(spectrum z: UnsafeMutablePointer<Float>, binCount: Int) {
        let ratio = ratio, hopSize = hopSize, frameSize = frameSize
        state { Self.process(spectrum: z, binCount: binCount, storage: $0, ratio: ratio, hopSize: hopSize, frameSize: frameSize) }
    }

    @_noAllocation
    private static func process(
        spectrum z: UnsafeMutablePointer<Float>, binCount: Int, storage s: PhaseLockStorage, ratio: Float, hopSize: Int, frameSize: Int
    ) {
        let power = s.power, out = s.output
        // Centre-referenced phases: (−1)^k is a circular shift of the frame by N/2.
        var k = 1
        while k < binCount { z[2 * k] = -z[2 * k]; z[2 * k + 1] = -z[2 * k + 1]; k += 2 }
        var strongest: Float = 0
        for k in 0..<binCount {
            power[k] = z[2 * k] * z[2 * k] + z[2 * k + 1] * z[2 * k + 1]
            strongest = max(strongest, power[k])
        }
        out.update(repeating: 0, count: 2 * binCount)
        let peakCount = findPeaks(power: power, peaks: s.peaks, binCount: binCount, floor: strongest * Self.peakFloor)
        let expectedAdvance = 2 * Double.pi * Double(hopSize) / Double(frameSize)  // per bin of frequency
        var regionStart = 0
        for i in 0..<peakCount {
            let p = s.peaks[i]
            let regionEnd = i + 1 < peakCount ? lowestBin(power: power, between: p, and: s.peaks[i + 1]) : binCount
            let phase = Double(RealTimeMath.atan2(z[2 * p + 1], z[2 * p]))
            var trueBin = Double(p)
            if s.hasPrevious {
                let previous = Double(RealTimeMath.atan2(s.previousInput[2 * p + 1], s.previousInput[2 * p]))
                trueBin += principal(phase - previous - expectedAdvance * Double(p)) / expectedAdvance
            }
            let targetBin = trueBin * Double(ratio)
            let outBin = Int(RealTimeMath.round(targetBin))
            var outPhase = phase
            if let previousPhase = s.previousPeakPhase(near: outBin) {
                outPhase = previousPhase + expectedAdvance * targetBin
            }
            outPhase = principal(outPhase)
            s.recordPeak(bin: outBin, phase: outPhase)
            let rotation = outPhase - phase
            let (cr, ci) = (Float(RealTimeMath.cos(rotation)), Float(RealTimeMath.sin(rotation)))
            let shift = outBin - p
            let first = max(regionStart, -shift), last = min(regionEnd, binCount - shift)
            if first < last {
                for k in first..<last {
                    let (re, im) = (z[2 * k], z[2 * k + 1])
                    let j = 2 * (k + shift)
                    out[j] += re * cr - im * ci
                    out[j + 1] += re * ci + im * cr
                }
            }
            regionStart = regionEnd
        }
        s.finishFrame(input: z, binCount: binCount)
        // Back to frame-start phases; DC and Nyquist must stay real for the c2r transform.
        for k in 0..<binCount {
            let sign: Float = k & 1 == 0 ? 1 : -1
            z[2 * k] = sign * out[2 * k]
            z[2 * k + 1] = sign * out[2 * k + 1]
        }
        z[1] = 0
        z[2 * (binCount - 1) + 1] = 0
    }

    /// Local maxima of `power` above `floor`, into `storage.peaks`; returns how many.
    @_noAllocation
    private static func findPeaks(power: UnsafeMutablePointer<Float>, peaks: UnsafeMutablePointer<Int>, binCount: Int, floor: Float) -> Int {
        var count = 0
        for k in 1..<(binCount - 1) where power[k] > floor && power[k] > power[k - 1] && power[k] >= power[k + 1] {
            peaks[count] = k
            count += 1
        }
        return count
    }

    /// First bin of the next region: the weakest bin between two peaks.
    @_noAllocation
    private static func lowestBin(power: UnsafeMutablePointer<Float>, between a: Int, and b: Int) -> Int {
        var best = a + 1
        for k in (a + 1)..<b where power[k] < power[best] { best = k }
        return best
    }

    @_noAllocation
    private static func principal(_ x: Double) -> Double {
        x - 2 * Double.pi * RealTimeMath.round(x / (2 * Double.pi))
    }
}

/// The pitch shifter's preallocated per-frame state (a class so the processor struct stays
/// cheap to hold and the buffers have one owner).
final class PhaseLockStorage {
    let binCount: Int
    let power: UnsafeMutablePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let previousInput: UnsafeMutablePointer<Float>
    let peaks: UnsafeMutablePointer<Int>
    /// Output peaks of the previous and of the current frame: bin and centre phase, bin-sorted.
    private var lastBins: UnsafeMutablePointer<Int>
    private var lastPhases: UnsafeMutablePointer<Double>
    private var lastCount = 0
    private var nextBins: UnsafeMutablePointer<Int>
    private var nextPhases: UnsafeMutablePointer<Double>
    private var nextCount = 0
    private var searchFrom = 0
    private(set) var hasPrevious = false

    init(binCount: Int) {
        self.binCount = binCount
        power = .allocate(capacity: binCount)
        output = .allocate(capacity: 2 * binCount)
        previousInput = .allocate(capacity: 2 * binCount)
        peaks = .allocate(capacity: binCount)
        lastBins = .allocate(capacity: binCount)
        lastPhases = .allocate(capacity: binCount)
        nextBins = .allocate(capacity: binCount)
        nextPhases = .allocate(capacity: binCount)
        previousInput.initialize(repeating: 0, count: 2 * binCount)
    }

    deinit {
        for p in [power, output, previousInput] { p.deallocate() }
        for p in [peaks, lastBins, nextBins] { p.deallocate() }
        lastPhases.deallocate()
        nextPhases.deallocate()
    }

    func reset() {
        hasPrevious = false
        lastCount = 0
        nextCount = 0
        searchFrom = 0
    }

    /// Phase of last frame's output peak within one bin of `bin` (peaks are visited in rising
    /// order, so the search resumes where it stopped).
    func previousPeakPhase(near bin: Int) -> Double? {
        let lastCount = lastCount, lastBins = lastBins  // locals: `&&` would capture `self` (a retain)
        var from = searchFrom
        while from < lastCount && lastBins[from] < bin - 1 { from += 1 }
        searchFrom = from
        var best = -1, bestDistance = Int.max
        var i = from
        while i < lastCount && lastBins[i] <= bin + 1 {
            let distance = abs(lastBins[i] - bin)
            if distance < bestDistance { (best, bestDistance) = (i, distance) }
            i += 1
        }
        return best >= 0 ? lastPhases[best] : nil
    }

    func recordPeak(bin: Int, phase: Double) {
        guard nextCount < binCount else { return }
        nextBins[nextCount] = bin
        nextPhases[nextCount] = phase
        nextCount += 1
    }

    /// Keeps this frame's input spectrum and output peaks for the next frame.
    func finishFrame(input: UnsafeMutablePointer<Float>, binCount: Int) {
        previousInput.copyFloats(from: input, count: 2 * binCount)
        swap(&lastBins, &nextBins)
        swap(&lastPhases, &nextPhases)
        lastCount = nextCount
        nextCount = 0
        searchFrom = 0
        hasPrevious = true
    }
}
