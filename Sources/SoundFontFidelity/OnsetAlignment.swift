import Foundation

/// Where a note starts sounding in each render, so that both are measured from the same point of
/// the note. FluidSynth's file renderer plays a MIDI event at the start of a later block than the
/// event's frame (in these renders 64 or 128 frames late, its note-offs as late as its note-ons:
/// measured), ours at the frame: left
/// as it is, every 1 ms envelope point of FluidSynth's render averages a different stretch of the
/// waveform than ours, and on a note whose envelope is its sample's own (a drum, a low piano key
/// whose period is longer than the envelope's window) the two cross a threshold at a different
/// wobble. Control thread.
public enum OnsetAlignment {
    /// A note starts at its first frame louder than this, relative to its loudest frame over the
    /// first second: below any sample's own onset ramp, above the resampler's ringing.
    public static let thresholdDecibels = -60.0
    /// Lags beyond this are not the same note's start (the note-on is late by a block or two).
    public static let maximumLag = 1024

    /// Frames the reference's note starts after ours (negative: before), 0 when either is silent.
    public static func lag(reference: (left: [Float], right: [Float]), ours: (left: [Float], right: [Float]), window: NoteWindow, sampleRate: Double) -> Int {
        let span = Int(sampleRate)
        guard let a = start(reference.left, reference.right, from: window.onset, count: span),
              let b = start(ours.left, ours.right, from: window.onset, count: span)
        else { return 0 }
        let lag = a - b
        return abs(lag) <= maximumLag ? lag : 0
    }

    /// The first frame from `from` within `thresholdDecibels` of the loudest of the `count` frames.
    static func start(_ left: [Float], _ right: [Float], from: Int, count: Int) -> Int? {
        let end = min(from + count, left.count, right.count)
        guard end > from else { return nil }
        var peak: Float = 0
        for i in from..<end { peak = max(peak, abs(left[i]) + abs(right[i])) }
        guard peak > 1e-7 else { return nil }
        let threshold = peak * Float(pow(10, thresholdDecibels / 20))
        return (from..<end).first { abs(left[$0]) + abs(right[$0]) > threshold }
    }
}

extension NoteWindow {
    public func shifted(by frames: Int) -> NoteWindow {
        NoteWindow(onset: onset + frames, release: release + frames, end: end + frames)
    }
}
