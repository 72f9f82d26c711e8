import DSP
import Sampler

#if canImport(Glibc)
import Glibc
#endif

/// The low-pass filters that make a region's band-limited levels (`LevelLayout`): level k keeps
/// what a step up to `LevelLayout.maxSteps[k]` can play without aliasing, prefiltered for the live
/// kernel, so the voices can read any upward step with a 4-point cubic (live) or 16 taps (offline)
/// at images ≤ −80 dBc. README.md in this folder explains the design and how it was measured.
///
/// Each filter: pass band to 0.9 × the edge (0.8 for the top level), flat (1, times 1/H of the
/// live kernel), stop band exactly 0 from the edge, between them the integral of a Kaiser window
/// (β 12.3), applied by FFT fast convolution (`LevelBuilder`).
enum LevelFilters {
    struct Spec {
        /// Largest step (source frames per output frame) this level serves.
        var maxStep: Double
        /// Stored frames per source frame (r).
        var oversampling: Int
        /// Pass-band edge / stop-band edge. The top level's is wider (0.8): its filter, the
        /// longest, sets the FFT blocks' overlap, which this halves (390 frames either side).
        var passFraction = 0.9
        /// Stop-band edge, cycles per source frame.
        var edge: Double { 0.5 / maxStep }
        /// Pass-band edge, cycles per source frame.
        var passEdge: Double { passFraction * edge }
        /// Source frames either side beyond which the filter's response is below −120 dB
        /// (Kaiser: N = (A − 7.95) / (14.36 Δf), dual in time; 25 % to spare).
        var halfLength: Int { Int((1.25 * (120 - 7.95) / (14.36 * (edge - passEdge)) / 2).rounded(.up)) }
    }

    /// One per level of `LevelLayout`.
    static let specs = (0..<LevelLayout.count).map { level in
        Spec(maxStep: LevelLayout.maxSteps[level], oversampling: LevelLayout.oversampling[level],
             passFraction: level == LevelLayout.count - 1 ? 0.8 : 0.9)
    }

    /// The live kernel's response at `frequency` cycles per stored frame, sinc⁴(f) · (1 − (πf)²/9):
    /// what it does to the pass band, and what each level's filter divides by.
    static func liveKernelResponse(at frequency: Double) -> Double {
        guard frequency != 0 else { return 1 }
        let x = Double.pi * frequency, sinc = sin(x) / x
        return sinc * sinc * sinc * sinc * (1 - x * x / 9)
    }

    /// The longest filter's half length (391 source frames, the step-4 and step-8 levels'): the FFT
    /// blocks overlap by it whichever levels are built, so a level's samples do not depend on
    /// which others are built with it (a region built with fewer levels for lack of room holds
    /// the same samples in those it has).
    static let maxHalfLength = specs.map(\.halfLength).max()!

    /// A looped region's levels run this many source frames past the loop end before the voice
    /// jumps back one loop length: the filtered signal repeats exactly once the longest filter no
    /// longer reaches back before the loop end, plus the kernel's window.
    static var loopTailFrames: Int { maxHalfLength + LevelLayout.guardFrames }

    /// Transition shape: 1 − the normalised integral of a Kaiser window (β 12.3), tabulated.
    private static let transitionPoints = 2048
    private static let transition: [Double] = {
        let beta = 0.1102 * (120 - 8.7), n = transitionPoints
        func window(_ u: Double) -> Double { WindowedSinc.besselI0Fit(beta * max(0, 1 - (2 * u - 1) * (2 * u - 1)).squareRoot()) }
        var cumulative = [Double](repeating: 0, count: n + 1)
        let steps = 8, h = 1 / Double(n * steps)
        var sum = 0.0, previous = window(0)
        for i in 1...n {
            for s in 1...steps {
                let value = window((Double((i - 1) * steps + s)) * h)
                sum += (previous + value) * h / 2
                previous = value
            }
            cumulative[i] = sum
        }
        return cumulative.map { 1 - $0 / sum }
    }()

    /// The filter's gain at `frequency` cycles per source frame.
    static func response(_ spec: Spec, at frequency: Double) -> Double {
        if frequency <= spec.passEdge { return 1 }
        if frequency >= spec.edge { return 0 }
        let position = (frequency - spec.passEdge) / (spec.edge - spec.passEdge) * Double(transitionPoints)
        let index = min(Int(position), transitionPoints - 1), t = position - Double(index)
        return transition[index] + t * (transition[index + 1] - transition[index])
    }
}
