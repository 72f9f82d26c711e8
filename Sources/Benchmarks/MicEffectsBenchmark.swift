#if canImport(Glibc)
import Glibc
#endif
import DSP
import MicEffects
import Spectral

/// CPU cost of each mic effect and a comparison of our pitch shifter with the classic
/// smbPitchShift algorithm. Control thread (allocates); the lead exposes it as `audiograph bench`.
/// Times are this thread's CPU time (robust against other load on the machine).
public enum MicEffectsBenchmark {
    /// Cost of each effect (and of the pitch tracker alone) running a stereo `MicChain` at
    /// `sampleRate` in 64-frame blocks, as a share of the block's real-time duration
    /// (0.01 = 1 % of one core).
    public static func run(seconds: Double = 4, sampleRate: Double = 48_000) -> [(effect: String, shareOf64FrameBlock: Double)] {
        let blockFrames = 64
        let blocks = max(1, Int(seconds * sampleRate) / blockFrames)
        let source = testSignal(frames: blocks * blockFrames, sampleRate: sampleRate)
        let io = StereoBuffer(capacity: blockFrames)
        var results: [(effect: String, shareOf64FrameBlock: Double)] = []
        let cases: [(String, MicEffectKind, Bool)] = MicEffectKind.allCases.map { ($0.name, $0, false) }
            + [("off + pitch tracking", .off, true)]
        for (name, kind, tracking) in cases {
            let chain = MicChain(sampleRate: sampleRate, maxFrames: blockFrames)
            chain.prepare(kind)
            if tracking { chain.preparePitchTracking() }
            chain.setEffect(kind)
            chain.setMix(0.7)
            chain.setPitchShiftSemitones(7)
            chain.pitchTrackingEnabled = tracking
            chain.reset()
            let seconds = cpuSeconds {
                for b in 0..<blocks {
                    for i in 0..<blockFrames {
                        io.left[i] = source[b * blockFrames + i]
                        io.right[i] = source[b * blockFrames + i] * 0.5
                    }
                    chain.process(input: io.block(frames: blockFrames), output: io.block(frames: blockFrames))
                }
            }
            results.append((name, seconds / (Double(blocks * blockFrames) / sampleRate)))
        }
        return results
    }

    /// One pitch shifter measured on the same harmonic tone.
    public struct PitchShifterFigures: Sendable {
        public var name: String
        /// Seconds of mono audio processed per CPU second.
        public var realTimeFactor: Double
        /// Median detected pitch of the output minus the exact shifted pitch, in cents.
        public var pitchErrorCents: Double
        /// Energy at the shifted harmonics over everything else, in dB (higher = cleaner; the
        /// classic vocoder's phasiness and smearing show up as energy between the harmonics).
        public var harmonicToResidualDecibels: Double
    }

    /// Our phase-locked shifter (1024-point frames, overlap 8 as the chain uses it, and overlap 4)
    /// against the classic algorithm (1024, overlap 8) on a 220 Hz six-harmonic tone shifted by
    /// `semitones`, mono. Rows: ours/8, ours/4, classic.
    public static func comparePitchShifters(semitones: Double = 7, seconds: Double = 4, sampleRate: Double = 48_000) -> [PitchShifterFigures] {
        let frames = Int(seconds * sampleRate)
        let f0 = 220.0, ratio = pow(2, semitones / 12)
        let input: [Float] = (0..<frames).map { n in
            var s = 0.0
            for h in 1...6 { s += sin(2 * Double.pi * Double(h) * f0 * Double(n) / sampleRate) / Double(h) }
            return Float(0.3 * s)
        }
        var output = [Float](repeating: 0, count: frames)
        let block = 64

        var rows: [PitchShifterFigures] = []
        for overlap in [8, 4] {
            let ours = STFT(frameSize: 1024, overlap: overlap,
                            processor: PhaseLockedPitchShift(frameSize: 1024, hopSize: 1024 / overlap))
            ours.processor.ratio = Float(ratio)
            let oursSeconds = cpuSeconds {
                input.withUnsafeBufferPointer { x in
                    output.withUnsafeMutableBufferPointer { y in
                        for start in stride(from: 0, to: frames, by: block) {
                            ours.process(x.baseAddress! + start, y.baseAddress! + start, count: min(block, frames - start))
                        }
                    }
                }
            }
            rows.append(figures("phase-locked (ours, 1024/\(overlap))", output, seconds: oursSeconds, frames: frames,
                                expectedHz: f0 * ratio, sampleRate: sampleRate))
        }

        let classic = ClassicPitchShiftReference(frameSize: 1024, oversampling: 8, sampleRate: sampleRate)
        classic.ratio = ratio
        let classicSeconds = cpuSeconds {
            input.withUnsafeBufferPointer { x in
                output.withUnsafeMutableBufferPointer { y in
                    for start in stride(from: 0, to: frames, by: block) {
                        classic.process(x.baseAddress! + start, y.baseAddress! + start, count: min(block, frames - start))
                    }
                }
            }
        }
        let classicFigures = figures("smbPitchShift (classic, 1024/8)", output, seconds: classicSeconds, frames: frames,
                                     expectedHz: f0 * ratio, sampleRate: sampleRate)
        return rows + [classicFigures]
    }

    private static func figures(_ name: String, _ output: [Float], seconds: Double, frames: Int, expectedHz: Double, sampleRate: Double) -> PitchShifterFigures {
        // Skip the latency and the first frames' onset.
        let settled = Array(output[Int(0.5 * sampleRate)...])
        let track = PitchDetector.analyze(samples: settled, sampleRate: sampleRate, hop: 2_048)
            .filter { $0.estimate.voiced }.map(\.estimate.frequencyHz).sorted()
        let median = track.isEmpty ? 0 : track[track.count / 2]
        return PitchShifterFigures(
            name: name,
            realTimeFactor: Double(frames) / sampleRate / max(seconds, 1e-9),
            pitchErrorCents: median > 0 ? 1200 * log2(median / expectedHz) : .nan,
            harmonicToResidualDecibels: harmonicToResidual(settled, fundamentalHz: expectedHz, sampleRate: sampleRate))
    }

    /// Hann-windowed 32768-point spectrum: energy within ±4 bins (±5.9 Hz) of each harmonic of
    /// `fundamentalHz` against the rest.
    static func harmonicToResidual(_ x: [Float], fundamentalHz: Double, sampleRate: Double) -> Double {
        let n = 32_768
        guard x.count >= n else { return .nan }
        let fft = RealFFT(size: n)
        for i in 0..<n { fft.time[i] = x[i] * Float(0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(n))) }
        fft.forward()
        var harmonic = 0.0, total = 0.0
        let binHz = sampleRate / Double(n)
        for k in 1..<fft.binCount {
            let p = Double(fft.spectrum[2 * k] * fft.spectrum[2 * k] + fft.spectrum[2 * k + 1] * fft.spectrum[2 * k + 1])
            total += p
            let h = (Double(k) * binHz / fundamentalHz).rounded()
            if h >= 1 && abs(Double(k) * binHz - h * fundamentalHz) <= 4 * binHz { harmonic += p }
        }
        return 10 * log10(harmonic / max(total - harmonic, 1e-30))
    }

    /// A voice-like test input: a 196 Hz harmonic tone with a little seeded noise.
    private static func testSignal(frames: Int, sampleRate: Double) -> [Float] {
        var seed: UInt32 = 12_345
        return (0..<frames).map { n in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            let noise = (Float(seed >> 8) / Float(1 << 24) - 0.5) * 0.02
            var s = 0.0
            for h in 1...5 { s += sin(2 * Double.pi * Double(h) * 196 * Double(n) / sampleRate) / Double(h) }
            return Float(0.3 * s) + noise
        }
    }

    private static func cpuSeconds(_ body: () -> Void) -> Double {
        var a = timespec(), b = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a)
        body()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b)
        return Double(b.tv_sec - a.tv_sec) + Double(b.tv_nsec - a.tv_nsec) * 1e-9
    }
}
