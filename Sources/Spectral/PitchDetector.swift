import DSP
#if canImport(Glibc)
import Glibc
#endif

/// YIN pitch detector (de Cheveigné & Kawahara 2002) with an FFT-computed difference function,
/// a time-domain re-evaluation of the difference at the chosen lag and its neighbours, and
/// parabolic refinement; plus a voicing decision (periodicity and level).
///
/// Use it offline on a whole signal (`analyze`) or incrementally on the render thread
/// (`push`, then read `latest`). `init` allocates and plans FFTW (control thread); `estimate`,
/// `push` and `reset` are render-thread safe.
public final class PitchDetector {
    public let sampleRate: Double
    /// Shortest and longest period searched, in frames.
    public let minimumLag: Int
    public let maximumLag: Int
    /// Frames summed in the difference function (equal to `maximumLag`, so the lowest pitch
    /// still gets a whole period).
    public let integrationFrames: Int
    /// Frames one estimate looks at: `integrationFrames + maximumLag + 1`.
    public let frameFrames: Int
    /// Frames between incremental estimates.
    public let hopFrames: Int
    /// YIN's absolute threshold on the normalised difference: the first dip below it wins.
    public let dipThreshold: Double = 0.15
    /// A frame is voiced when its normalised difference at the chosen lag is below this…
    public let voicingThreshold: Double = 0.35
    /// …and its level is above this (dBFS, mean square over the integration window).
    public let silenceDecibels: Double = -60

    /// The most recent incremental estimate.
    public private(set) var latest = PitchEstimate.unvoiced

    /// Owners of the two FFTs; the render path calls their `transform`s (no retain).
    private let owners: (RealFFT, RealFFT)
    private let fftA: RealFFT.Transform
    private let fftB: RealFFT.Transform
    private let difference: UnsafeMutablePointer<Double>
    private let normalised: UnsafeMutablePointer<Double>
    private let prefixEnergy: UnsafeMutablePointer<Double>
    private let ring: UnsafeMutablePointer<Float>
    private let frame: UnsafeMutablePointer<Float>
    private var ringIndex = 0
    private var sinceEstimate = 0
    private var filled = 0

    /// Searches `minimumFrequencyHz…maximumFrequencyHz`. Control thread.
    public init(sampleRate: Double, minimumFrequencyHz: Double = 40, maximumFrequencyHz: Double = 3000, hopFrames: Int = 512) {
        self.sampleRate = sampleRate
        minimumLag = max(2, Int(sampleRate / maximumFrequencyHz))
        maximumLag = Int((sampleRate / minimumFrequencyHz).rounded(.up)) + 2
        integrationFrames = maximumLag
        frameFrames = integrationFrames + maximumLag + 1
        self.hopFrames = max(1, hopFrames)
        var size = 1
        while size < frameFrames { size <<= 1 }
        owners = (RealFFT(size: size), RealFFT(size: size))
        fftA = owners.0.transform
        fftB = owners.1.transform
        difference = .allocate(capacity: maximumLag + 1)
        normalised = .allocate(capacity: maximumLag + 1)
        prefixEnergy = .allocate(capacity: frameFrames + 1)
        ring = .allocate(capacity: frameFrames)
        ring.initialize(repeating: 0, count: frameFrames)
        frame = .allocate(capacity: frameFrames)
        frame.initialize(repeating: 0, count: frameFrames)
    }

    deinit {
        difference.deallocate()
        normalised.deallocate()
        prefixEnergy.deallocate()
        ring.deallocate()
        frame.deallocate()
    }

    /// Pitch of `frameFrames` samples at `x`. Render-thread safe.
    @_noAllocation
    public func estimate(_ x: UnsafePointer<Float>) -> PitchEstimate {
        let w = integrationFrames, n = fftA.size
        prefixEnergy[0] = 0
        for j in 0..<frameFrames { prefixEnergy[j + 1] = prefixEnergy[j] + Double(x[j]) * Double(x[j]) }
        let energy = prefixEnergy[w]
        guard meanSquareDecibels(energy / Double(w)) > silenceDecibels else { return .unvoiced }

        // Cross term c(τ) = Σ_{j<W} x_j·x_{j+τ} by FFT: conj(A)·B, no wrap-around for τ ≤ maxLag.
        fftA.time.copyFloats(from: x, count: w)
        (fftA.time + w).update(repeating: 0, count: n - w)
        fftB.time.copyFloats(from: x, count: frameFrames)
        (fftB.time + frameFrames).update(repeating: 0, count: n - frameFrames)
        fftA.forward()
        fftB.forward()
        let a = fftA.spectrum, b = fftB.spectrum
        for k in 0..<fftA.binCount {
            let (ar, ai, br, bi) = (a[2 * k], a[2 * k + 1], b[2 * k], b[2 * k + 1])
            b[2 * k] = ar * br + ai * bi
            b[2 * k + 1] = ar * bi - ai * br
        }
        fftB.inverse()
        let scale = 1 / Double(n)
        for tau in 0...maximumLag {
            let shifted = prefixEnergy[tau + w] - prefixEnergy[tau]
            difference[tau] = max(energy + shifted - 2 * Double(fftB.time[tau]) * scale, 0)
        }

        // Cumulative-mean normalisation (YIN step 3).
        normalised[0] = 1
        var running = 0.0
        for tau in 1...maximumLag {
            running += difference[tau]
            normalised[tau] = running > 0 ? difference[tau] * Double(tau) / running : 1
        }
        guard let lag = chooseLag() else { return .unvoiced }
        let d = normalised[lag]
        let period = Double(lag) + parabolicOffset(x, lag: lag)
        return PitchEstimate(frequencyHz: sampleRate / period, confidence: min(max(1 - d, 0), 1), voiced: d < voicingThreshold)
    }

    /// YIN step 4 with a guard for noisy frames: the first dip below the threshold (raised to
    /// just above the global minimum when noise lifts every dip), and the deepest lag in that dip.
    private func chooseLag() -> Int? {
        var globalMinimum = Double.infinity
        for tau in minimumLag..<maximumLag { globalMinimum = min(globalMinimum, normalised[tau]) }
        guard globalMinimum.isFinite else { return nil }
        let threshold = max(dipThreshold, globalMinimum + 0.1)
        let normalised = normalised, maximumLag = maximumLag  // locals: `&&` would capture `self` (a retain)
        var tau = minimumLag
        while tau < maximumLag && normalised[tau] >= threshold { tau += 1 }
        guard tau < maximumLag else { return nil }
        // The deepest point of this dip (noise makes small local minima on its slopes).
        var best = tau
        while tau < maximumLag && normalised[tau] < threshold {
            if normalised[tau] < normalised[best] { best = tau }
            tau += 1
        }
        return best
    }

    /// Vertex of the parabola through the raw difference at lag−1, lag, lag+1, re-evaluated
    /// directly in Double (the FFT's Float rounding would bend it for long periods).
    private func parabolicOffset(_ x: UnsafePointer<Float>, lag: Int) -> Double {
        guard lag > minimumLag, lag + 1 <= maximumLag else { return 0 }
        func exactDifference(_ tau: Int) -> Double {
            var s = 0.0
            for j in 0..<integrationFrames {
                let e = Double(x[j]) - Double(x[j + tau])
                s += e * e
            }
            return s
        }
        let (l, c, r) = (exactDifference(lag - 1), exactDifference(lag), exactDifference(lag + 1))
        let curvature = l - 2 * c + r
        guard curvature > 0 else { return 0 }
        return min(max(0.5 * (l - r) / curvature, -1), 1)
    }

    /// Feeds `count` samples; every `hopFrames` an estimate of the latest `frameFrames` samples
    /// lands in `latest`. Returns true when it did. Render-thread safe.
    @discardableResult @_noAllocation
    public func push(_ samples: UnsafePointer<Float>, count: Int) -> Bool {
        var updated = false
        let hopFrames = hopFrames, frameFrames = frameFrames  // locals: `&&` would capture `self` (a retain)
        for i in 0..<count {
            ring[ringIndex] = samples[i]
            ringIndex = ringIndex + 1 == frameFrames ? 0 : ringIndex + 1
            filled = min(filled + 1, frameFrames)
            sinceEstimate += 1
            if sinceEstimate >= hopFrames, filled == frameFrames {
                sinceEstimate = 0
                let older = frameFrames - ringIndex
                frame.copyFloats(from: ring + ringIndex, count: older)
                (frame + older).copyFloats(from: ring, count: ringIndex)
                latest = estimate(frame)
                updated = true
            }
        }
        return updated
    }

    /// Forgets the pushed history. Render-thread safe.
    @_noAllocation
    public func reset() {
        ring.update(repeating: 0, count: frameFrames)
        ringIndex = 0
        sinceEstimate = 0
        filled = 0
        latest = .unvoiced
    }

    /// Pitch track of a whole signal: one estimate every `hop` frames, each stamped with the time
    /// (seconds) of the centre of the span it analysed. Control thread (allocates).
    public static func analyze(samples: [Float], sampleRate: Double, hop: Int) -> [(time: Double, estimate: PitchEstimate)] {
        let detector = PitchDetector(sampleRate: sampleRate, hopFrames: hop)
        let span = detector.frameFrames
        guard samples.count >= span else { return [] }
        var track: [(time: Double, estimate: PitchEstimate)] = []
        track.reserveCapacity((samples.count - span) / max(hop, 1) + 1)
        samples.withUnsafeBufferPointer { all in
            var start = 0
            while start + span <= all.count {
                let e = detector.estimate(all.baseAddress! + start)
                track.append((time: (Double(start) + Double(span) / 2) / sampleRate, estimate: e))
                start += max(hop, 1)
            }
        }
        return track
    }
}

/// Level of a mean square in dB (private helper; −200 for silence).
private func meanSquareDecibels(_ meanSquare: Double) -> Double {
    meanSquare > 1e-20 ? 10 * RealTimeMath.log10(meanSquare) : -200
}
