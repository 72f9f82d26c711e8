import AudioTestSupport
import DSP
import Foundation
import Testing

/// Feeds arrays through a send effect in blocks, calling `beforeBlock(start)` at each block start
/// (where a parameter sweep applies new settings, as the engine will). Test thread only.
enum SendEffectHarness {
    static func run(_ effect: some SendEffect, left: [Float], right: [Float], block: Int = 64,
                    beforeBlock: (Int) -> Void = { _ in }) -> (left: [Float], right: [Float]) {
        precondition(left.count == right.count)
        var inL = left, inR = right
        var outL = [Float](repeating: 0, count: left.count), outR = outL
        inL.withUnsafeMutableBufferPointer { il in
            inR.withUnsafeMutableBufferPointer { ir in
                outL.withUnsafeMutableBufferPointer { ol in
                    outR.withUnsafeMutableBufferPointer { or in
                        var start = 0
                        while start < left.count {
                            let n = min(block, left.count - start)
                            beforeBlock(start)
                            effect.process(input: StereoBlock(left: il.baseAddress! + start, right: ir.baseAddress! + start, frames: n),
                                           output: StereoBlock(left: ol.baseAddress! + start, right: or.baseAddress! + start, frames: n))
                            start += n
                        }
                    }
                }
            }
        }
        return (outL, outR)
    }

    /// Plays a 220 Hz sine (faded in) through `effect` for `settle` frames, then calls
    /// `apply(t)` at every block start while t goes 0 → 1 over `sweep` frames, and expects no step
    /// above −60 dBFS (third difference < 0.001) in either channel while the output stays above
    /// `floorRMS` (so a silent output cannot pass).
    static func expectClickFreeSweep(_ effect: some SendEffect, sampleRate: Double, settle: Int, sweep: Int,
                                     amplitude: Float, floorRMS: Double, label: String,
                                     sourceLocation: SourceLocation = #_sourceLocation, apply: (Double) -> Void) {
        let x = fadedSine(frequency: 220, sampleRate: sampleRate, frames: settle + sweep, amplitude: amplitude)
        let out = run(effect, left: x, right: x) { start in
            apply(Double(min(max(start - settle, 0), sweep)) / Double(sweep))
        }
        for channel in [out.left, out.right] {
            let swept = channel[settle...]
            let step = Measure.maxDiscontinuity(swept)
            #expect(step < 0.001, "\(label): third difference \(step)", sourceLocation: sourceLocation)
            #expect(Measure.rms(swept) > floorRMS, "\(label): output \(Measure.decibels(Measure.rms(swept))) dBFS",
                    sourceLocation: sourceLocation)
        }
    }

    /// Puts `bad` (NaN or infinity) into a playing 440 Hz sine at frame 10,000 and expects no
    /// non-finite sample in the output and the effect still sounding (RMS above `floorRMS`) a
    /// quarter of a second later.
    static func expectBadSampleIsDropped(_ effect: some SendEffect, bad: Float, floorRMS: Double,
                                         sourceLocation: SourceLocation = #_sourceLocation) {
        var x = fadedSine(frequency: 440, sampleRate: 48_000, frames: 48_000)
        x[10_000] = bad
        let out = run(effect, left: x, right: x)
        #expect(out.left.allSatisfy { $0.isFinite } && out.right.allSatisfy { $0.isFinite }, sourceLocation: sourceLocation)
        let after: ArraySlice<Float> = out.left[22_000...]
        #expect(Measure.rms(after) > floorRMS, sourceLocation: sourceLocation)
    }

    /// A unit impulse on both inputs followed by `frames − 1` zeros.
    static func impulse(frames: Int) -> [Float] {
        var x = [Float](repeating: 0, count: frames)
        x[0] = 1
        return x
    }

    /// A sine faded in over 50 ms with a raised cosine, so the effect's response has no onset click.
    static func fadedSine(frequency: Double, sampleRate: Double, frames: Int, amplitude: Float = 0.5) -> [Float] {
        let fade = Int(0.05 * sampleRate)
        var x = Measure.sine(frequency: frequency, sampleRate: sampleRate, count: frames, amplitude: amplitude)
        for i in 0..<min(fade, frames) { x[i] *= Float(0.5 - 0.5 * cos(Double.pi * Double(i) / Double(fade))) }
        return x
    }

    /// Normalised cross-correlation at lag 0 (1 = identical, 0 = uncorrelated).
    static func correlation(_ a: ArraySlice<Float>, _ b: ArraySlice<Float>) -> Double {
        var ab = 0.0, aa = 0.0, bb = 0.0
        for (x, y) in zip(a, b) {
            ab += Double(x) * Double(y); aa += Double(x) * Double(x); bb += Double(y) * Double(y)
        }
        return ab / (aa * bb).squareRoot()
    }

    /// `x` through a biquad (direct form I in Double): the test's own band filter.
    static func filter(_ x: [Float], _ c: BiquadCoefficients) -> [Float] {
        var (x1, x2, y1, y2) = (0.0, 0.0, 0.0, 0.0)
        return x.map { v in
            let x0 = Double(v)
            let y0 = c.b0 * x0 + c.b1 * x1 + c.b2 * x2 - c.a1 * y1 - c.a2 * y2
            (x2, x1, y2, y1) = (x1, x0, y1, y0)
            return Float(y0)
        }
    }
}
