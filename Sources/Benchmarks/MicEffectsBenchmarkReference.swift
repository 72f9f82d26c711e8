#if canImport(Glibc)
import Glibc
#endif

/// Our own implementation of the classic public "smbPitchShift" algorithm (S. M. Bernsee,
/// "Pitch Shifting Using The Fourier Transform", 1999), kept only as the benchmark's reference:
/// a per-bin phase vocoder on its own radix-2 complex FFT. Every bin gets `atan2`, `sqrt`, `cos`
/// and `sin` each frame; each bin's true frequency is moved to bin k·ratio and its phase
/// accumulated on its own (no phase locking), which is the source of its "phasiness".
/// Mono, raw buffers like the C original, so the timing comparison is fair.
final class ClassicPitchShiftReference {
    let frameSize: Int
    let oversampling: Int
    let sampleRate: Double
    var ratio: Double = 1
    private let step: Int
    private let latency: Int
    private let inFIFO: UnsafeMutablePointer<Float>
    private let outFIFO: UnsafeMutablePointer<Float>
    private let work: UnsafeMutablePointer<Float>
    private let lastPhase: UnsafeMutablePointer<Float>
    private let sumPhase: UnsafeMutablePointer<Float>
    private let accumulator: UnsafeMutablePointer<Float>
    private let analysisMagnitude: UnsafeMutablePointer<Float>
    private let analysisFrequency: UnsafeMutablePointer<Float>
    private let synthesisMagnitude: UnsafeMutablePointer<Float>
    private let synthesisFrequency: UnsafeMutablePointer<Float>
    private var rover: Int

    init(frameSize: Int = 1024, oversampling: Int = 8, sampleRate: Double) {
        self.frameSize = frameSize
        self.oversampling = oversampling
        self.sampleRate = sampleRate
        step = frameSize / oversampling
        latency = frameSize - step
        rover = latency
        inFIFO = Self.zeros(frameSize)
        outFIFO = Self.zeros(frameSize)
        work = Self.zeros(2 * frameSize)
        lastPhase = Self.zeros(frameSize / 2 + 1)
        sumPhase = Self.zeros(frameSize / 2 + 1)
        accumulator = Self.zeros(2 * frameSize)
        analysisMagnitude = Self.zeros(frameSize)
        analysisFrequency = Self.zeros(frameSize)
        synthesisMagnitude = Self.zeros(frameSize)
        synthesisFrequency = Self.zeros(frameSize)
    }

    deinit {
        for p in [inFIFO, outFIFO, work, lastPhase, sumPhase, accumulator, analysisMagnitude, analysisFrequency,
                  synthesisMagnitude, synthesisFrequency] { p.deallocate() }
    }

    private static func zeros(_ count: Int) -> UnsafeMutablePointer<Float> {
        let p = UnsafeMutablePointer<Float>.allocate(capacity: count)
        p.initialize(repeating: 0, count: count)
        return p
    }

    /// Output lags input by this many frames.
    var latencyFrames: Int { latency }

    func process(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count {
            inFIFO[rover] = input[i]
            output[i] = outFIFO[rover - latency]
            rover += 1
            if rover >= frameSize {
                rover = latency
                processFrame()
            }
        }
    }

    private func processFrame() {
        let n = frameSize, half = n / 2
        let expected = 2 * Double.pi * Double(step) / Double(n)
        let binHz = sampleRate / Double(n)
        for k in 0..<n {
            let w = 0.5 - 0.5 * cos(2 * Double.pi * Double(k) / Double(n))
            work[2 * k] = inFIFO[k] * Float(w)
            work[2 * k + 1] = 0
        }
        Self.complexFFT(work, size: n, sign: -1)
        for k in 0...half {
            let re = Double(work[2 * k]), im = Double(work[2 * k + 1])
            let magnitude = 2 * (re * re + im * im).squareRoot()
            let phase = atan2(im, re)
            var delta = phase - Double(lastPhase[k])
            lastPhase[k] = Float(phase)
            delta -= Double(k) * expected
            // Wrap to ±π the way the original does: through an integer count of half turns.
            var halfTurns = Int(delta / Double.pi)
            halfTurns += halfTurns >= 0 ? (halfTurns & 1) : -(halfTurns & 1)
            delta -= Double.pi * Double(halfTurns)
            let deviation = Double(oversampling) * delta / (2 * Double.pi)
            analysisMagnitude[k] = Float(magnitude)
            analysisFrequency[k] = Float((Double(k) + deviation) * binHz)
        }
        for k in 0...half {
            synthesisMagnitude[k] = 0
            synthesisFrequency[k] = 0
        }
        for k in 0...half {
            let index = Int(Double(k) * ratio)
            if index <= half {
                synthesisMagnitude[index] += analysisMagnitude[k]
                synthesisFrequency[index] = analysisFrequency[k] * Float(ratio)
            }
        }
        for k in 0...half {
            var advance = Double(synthesisFrequency[k]) - Double(k) * binHz
            advance = 2 * Double.pi * (advance / binHz) / Double(oversampling) + Double(k) * expected
            sumPhase[k] += Float(advance)
            let phase = Double(sumPhase[k])
            let magnitude = Double(synthesisMagnitude[k])
            work[2 * k] = Float(magnitude * cos(phase))
            work[2 * k + 1] = Float(magnitude * sin(phase))
        }
        for k in (n + 2)..<(2 * n) { work[k] = 0 }
        Self.complexFFT(work, size: n, sign: 1)
        for k in 0..<n {
            let w = 0.5 - 0.5 * cos(2 * Double.pi * Double(k) / Double(n))
            accumulator[k] += Float(2 * w * Double(work[2 * k]) / Double(half * oversampling))
        }
        for k in 0..<step { outFIFO[k] = accumulator[k] }
        for k in 0..<n { accumulator[k] = accumulator[k + step] }
        for k in 0..<latency { inFIFO[k] = inFIFO[k + step] }
    }

    /// In-place radix-2 complex FFT on interleaved (re, im) data, `sign` −1 forward, +1 inverse
    /// (unnormalised): bit-reversal permutation, then butterflies whose twiddles are advanced by
    /// a complex rotation per stage, as in the original.
    static func complexFFT(_ data: UnsafeMutablePointer<Float>, size: Int, sign: Float) {
        var i = 2
        while i < 2 * size - 2 {
            var j = 0, bit = 2
            while bit < 2 * size {
                if i & bit != 0 { j += 1 }
                j <<= 1
                bit <<= 1
            }
            if i < j {
                (data[i], data[j]) = (data[j], data[i])
                (data[i + 1], data[j + 1]) = (data[j + 1], data[i + 1])
            }
            i += 2
        }
        var span = 2
        var stages = 0
        while (1 << stages) < size { stages += 1 }
        for _ in 0..<stages {
            span <<= 1
            let halfSpan = span >> 1
            let angle = Float.pi / Float(halfSpan >> 1)
            let (wr, wi) = (cos(angle), sign * sin(angle))
            var (ur, ui): (Float, Float) = (1, 0)
            var j = 0
            while j < halfSpan {
                var p = j
                while p < 2 * size {
                    let q = p + halfSpan
                    let tr = data[q] * ur - data[q + 1] * ui
                    let ti = data[q] * ui + data[q + 1] * ur
                    data[q] = data[p] - tr
                    data[q + 1] = data[p + 1] - ti
                    data[p] += tr
                    data[p + 1] += ti
                    p += span
                }
                let t = ur * wr - ui * wi
                ui = ur * wi + ui * wr
                ur = t
                j += 2
            }
        }
    }
}
