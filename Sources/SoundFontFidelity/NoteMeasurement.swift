import Foundation
import Spectral
import MemberwiseInit

/// What one rendered note measures as: the frequency of its strongest partial, its level over
/// the first second, and its attack, decay and release times, read from a 1 ms RMS envelope.
/// The same measure is taken of FluidSynth's render and of ours, then compared
/// (`NoteComparison`). Control thread.
public struct NoteMeasurement: Sendable, Equatable {
    /// The strongest partial (Hz) over the held part of the note; nil when the note is silent.
    public var partialHertz: Double?
    /// RMS of both channels over the first second after the note-on, dBFS.
    public var levelDecibels: Double
    /// From the onset (the first point within 40 dB of the first second's maximum) to the first
    /// point within 1 dB of that maximum.
    public var attackSeconds: Double?
    /// That point to 10 dB below it, if the level falls that far before the note-off.
    public var decaySeconds: Double?
    /// After the note-off, from 1 dB to 21 dB below the level just before it (the release's
    /// slope, whatever small lag each renderer's note-off has), if it falls that far in the window.
    public var releaseSeconds: Double?
    /// The envelope (dB, one point per `NoteAnalysis.hopSeconds` from the note-on) and, per time,
    /// the level its end crosses and the point where it does: a miss's diagnosis (`NoteComparison.gap`).
    public var envelope: [Double] = []
    public var attackEnd: Crossing?
    public var decayEnd: Crossing?
    public var releaseEnd: Crossing?

    public struct Crossing: Sendable, Equatable {
        public var threshold: Double
        public var point: Int?
    }
}

/// Where one note lies in a render, in frames.
@PublicInit
public struct NoteWindow: Sendable, Equatable {
    public var onset: Int
    public var release: Int
    public var end: Int
}

/// The measuring itself. Control thread (allocates, plans FFTs).
public enum NoteAnalysis {
    /// Envelope resolution, and the RMS window each point averages (a drum's grain averaged out).
    public static let hopSeconds = 0.001
    public static let envelopeWindowSeconds = 0.005
    /// Below this the note counts as silent (its times are not measured).
    public static let silenceDecibels = -90.0
    /// Held-note points end this many frames before the note-off (two of FluidSynth's blocks).
    static let heldMarginFrames = 128

    /// The note's channels from `window.onset` to `window.end` with everything above `cutoff` Hz
    /// removed (FFT, brick wall), so that both renders are measured in the band where
    /// FluidSynth's 4-point interpolation is accurate (`FidelityNotePlan.Note.accurateBand`);
    /// below it, each frequency (Hz) scaled by `response` when one is given.
    public static func bandLimited(
        left: [Float], right: [Float], window: NoteWindow, sampleRate: Double, cutoff: Double, response: ((Double) -> Double)? = nil
    ) -> (left: [Float], right: [Float], window: NoteWindow) {
        let count = min(window.end, left.count) - window.onset
        guard count > 0 else { return ([], [], NoteWindow(onset: 0, release: 0, end: 0)) }
        var size = 1
        while size < count { size *= 2 }
        let fft = RealFFT(size: size)
        func filter(_ x: [Float]) -> [Float] {
            for i in 0..<size { fft.time[i] = i < count ? x[window.onset + i] : 0 }
            fft.forward()
            let first = Int(cutoff / sampleRate * Double(size)) + 1
            for bin in min(first, fft.binCount)..<fft.binCount {
                fft.spectrum[2 * bin] = 0
                fft.spectrum[2 * bin + 1] = 0
            }
            if let response {
                for bin in 0..<min(first, fft.binCount) {
                    let gain = Float(response(Double(bin) * sampleRate / Double(size)))
                    fft.spectrum[2 * bin] *= gain
                    fft.spectrum[2 * bin + 1] *= gain
                }
            }
            fft.inverse()
            return (0..<count).map { fft.time[$0] / Float(size) }
        }
        return (filter(left), filter(right), NoteWindow(onset: 0, release: window.release - window.onset, end: count))
    }

    /// `envelopeSeconds`: the RMS window of the envelope (at least `envelopeWindowSeconds`).
    public static func measure(
        left: [Float], right: [Float], window: NoteWindow, sampleRate: Double, partialNear reference: Double? = nil,
        envelopeSeconds: Double = envelopeWindowSeconds
    ) -> NoteMeasurement {
        let hop = max(1, Int(hopSeconds * sampleRate))
        let width = max(hop, Int(max(envelopeSeconds, envelopeWindowSeconds) * sampleRate))
        let envelope = self.envelope(left: left, right: right, from: window.onset, to: window.end, hop: hop, width: width)
        let firstSecond = min(window.end, window.onset + Int(sampleRate)) - window.onset
        let level = rmsDecibels(left: left, right: right, from: window.onset, count: firstSecond)
        var measurement = NoteMeasurement(partialHertz: nil, levelDecibels: level)
        measurement.envelope = envelope
        let headPoints = max(1, firstSecond / hop)
        guard let peak = envelope.prefix(headPoints).max(), peak > silenceDecibels else { return measurement }
        let releasePoint = (window.release - window.onset) / hop
        // The last point whose window ends before the note-off, less two of FluidSynth's blocks: its
        // note-off can come 64 frames nearer its note-on than ours does (each rounded to its block
        // clock apart), and a point that sees the release is not the held note.
        let heldPoint = max(1, (window.release - window.onset - width - heldMarginFrames) / hop)
        if let top = envelope.prefix(headPoints).firstIndex(where: { $0 >= peak - 1 }),
           let onset = envelope.prefix(headPoints).firstIndex(where: { $0 >= peak - 40 })
        {
            measurement.attackSeconds = Double((top - onset) * hop) / sampleRate
            measurement.attackEnd = .init(threshold: peak - 1, point: top)
            let fall = envelope[top..<max(top, min(heldPoint, envelope.count))].firstIndex(where: { $0 <= peak - 10 })
            measurement.decayEnd = .init(threshold: peak - 10, point: fall)
            if let fall { measurement.decaySeconds = Double((fall - top) * hop) / sampleRate }
        }
        if releasePoint > 0, releasePoint < envelope.count, heldPoint < envelope.count {
            let atRelease = envelope[heldPoint - 1]
            measurement.releaseEnd = .init(threshold: atRelease - 21, point: nil)
            if atRelease > silenceDecibels + 21,
               let begin = envelope[releasePoint...].firstIndex(where: { $0 <= atRelease - 1 }),
               let fall = envelope[begin...].firstIndex(where: { $0 <= atRelease - 21 })
            {
                measurement.releaseSeconds = Double((fall - begin) * hop) / sampleRate
                measurement.releaseEnd?.point = fall
            }
        }
        let heldStart = window.onset + Int(0.1 * sampleRate)
        let heldEnd = min(window.release, window.onset + Int(1.1 * sampleRate))
        measurement.partialHertz = strongestPartial(left: left, right: right, from: heldStart, to: heldEnd, sampleRate: sampleRate, near: reference)
        return measurement
    }

    /// RMS (both channels) in dB of `width` frames every `hop` frames from `from` to `to`.
    static func envelope(left: [Float], right: [Float], from: Int, to: Int, hop: Int, width: Int) -> [Double] {
        stride(from: from, to: min(to, left.count) - width + 1, by: hop).map {
            rmsDecibels(left: left, right: right, from: $0, count: width)
        }
    }

    static func rmsDecibels(left: [Float], right: [Float], from: Int, count: Int) -> Double {
        let end = min(from + count, left.count, right.count)
        guard end > from else { return -200 }
        var sum = 0.0
        for i in from..<end { sum += Double(left[i] * left[i] + right[i] * right[i]) }
        let rms = (sum / Double(2 * (end - from))).squareRoot()
        return rms > 1e-10 ? 20 * log10(rms) : -200
    }

    /// The strongest spectral peak between `from` and `to` (Hann window, zero-padded 4×,
    /// Gaussian interpolation of the peak), or, given `reference`, the strongest within ±60
    /// cents of it (so both renders are measured on the same partial). nil when too short, silent,
    /// or (without a reference) not tonal: a peak less than 40 dB above the spectrum's median.
    public static func strongestPartial(
        left: [Float], right: [Float], from: Int, to: Int, sampleRate: Double, near reference: Double? = nil
    ) -> Double? {
        let available = min(to, left.count) - from
        guard available >= 2048 else { return nil }
        var length = 1
        while length * 2 <= min(available, 1 << 16) { length *= 2 }
        let fft = RealFFT(size: length * 4)
        for i in 0..<fft.size { fft.time[i] = 0 }
        for i in 0..<length {
            let w = Float(0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(length)))
            fft.time[i] = w * (left[from + i] + right[from + i])
        }
        fft.forward()
        func magnitude(_ bin: Int) -> Double {
            let re = Double(fft.spectrum[2 * bin]), im = Double(fft.spectrum[2 * bin + 1])
            return re * re + im * im
        }
        let binHertz = sampleRate / Double(fft.size)
        var low = max(1, Int(20 / binHertz)), high = fft.binCount - 2
        if let reference {
            low = max(low, Int(reference * pow(2, -60.0 / 1200) / binHertz))
            high = min(high, Int(reference * pow(2, 60.0 / 1200) / binHertz) + 1)
        }
        guard low < high else { return nil }
        var best = low
        for bin in low...high where magnitude(bin) > magnitude(best) { best = bin }
        guard magnitude(best) > 1e-12 else { return nil }
        if reference == nil {
            let all = (low...min(high, Int(10_000 / binHertz))).map(magnitude).sorted()
            guard !all.isEmpty, magnitude(best) > 1e4 * all[all.count / 2] else { return nil }
        }
        let a = log(max(magnitude(best - 1), 1e-30)), b = log(magnitude(best)), c = log(max(magnitude(best + 1), 1e-30))
        let offset = (a - c) / (2 * (a - 2 * b + c))
        return (Double(best) + (offset.isFinite ? max(-0.5, min(0.5, offset)) : 0)) * binHertz
    }
}
