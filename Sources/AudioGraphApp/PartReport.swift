import DSP
import Engine
import LiveControl
import Sampler

/// What one part (MIDI channel) did in a render: notes played and ignored, what it plays at the
/// end, and its peak (the part's own sub-mix, before its bus gain and the master stage).
public struct PartSummary: Sendable, Equatable {
    /// 1-based MIDI channel.
    public var channel: Int
    public var notesPlayed: Int
    public var notesIgnored: [PartMeters.IgnoredReason: Int]
    public var program: String
    public var peak: Float

    public var peakDecibels: Double { Decibels.fromGain(Double(peak)) }

    /// Parts that received notes (played or ignored), in channel order. Control thread, after rendering.
    public static func collect(_ engine: EngineController) -> [PartSummary] {
        let m = engine.partMeters
        return (0..<PartMeters.partCount).compactMap { c in
            var ignored: [PartMeters.IgnoredReason: Int] = [:]
            for reason in PartMeters.IgnoredReason.allCases where m.notesIgnored(channel: c, reason: reason) > 0 {
                ignored[reason] = m.notesIgnored(channel: c, reason: reason)
            }
            guard m.notesPlayed(channel: c) > 0 || !ignored.isEmpty else { return nil }
            return PartSummary(channel: c + 1, notesPlayed: m.notesPlayed(channel: c), notesIgnored: ignored,
                               program: engine.programName(of: m.program(channel: c)), peak: m.peak(channel: c))
        }
    }

    /// `channel  3  Bass        412 notes  peak  -9.8 dBFS`
    public var line: String {
        let name = program.padding(toLength: 10, withPad: " ", startingAt: 0)
        return "channel \(channel < 10 ? " " : "")\(channel)  \(name) \(String(format: "%5d notes  peak %6.1f dBFS", notesPlayed, peakDecibels))"
    }
}

/// Says once per channel that notes were ignored, and why (control thread; the render thread only
/// counts them). Used by `play` while it runs and by `render` at the end.
public final class PartReport {
    private var reported: Set<Int> = []

    public init() {}

    /// Lines for channels whose ignored notes have not been reported yet.
    public func newIgnoredNoteLines(_ engine: EngineController) -> [String] {
        var lines: [String] = []
        for c in 0..<PartMeters.partCount where !reported.contains(c) {
            for reason in PartMeters.IgnoredReason.allCases {
                let count = engine.partMeters.notesIgnored(channel: c, reason: reason)
                guard count > 0 else { continue }
                reported.insert(c)
                lines.append("channel \(c + 1): notes ignored (\(count) so far): \(Self.explain(reason, engine))")
                break
            }
        }
        return lines
    }

    static func explain(_ reason: PartMeters.IgnoredReason, _ engine: EngineController) -> String {
        switch reason {
        case .channelNotPlayed:
            let playing = (0..<16).filter { engine.routing.plays(channel: UInt8($0)) }.map { String($0 + 1) }
            return "the instrument file's channels.play lists only \(playing.isEmpty ? "none" : playing.joined(separator: ", "))"
        case .noProgram:
            return "its program plays nothing (\"none\" in the instrument's program table)"
        }
    }
}
