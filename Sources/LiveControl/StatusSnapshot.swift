import Engine
import Foundation

/// Everything `audiograph status` reports, as one value (JSON with `--json`).
struct StatusSnapshot: Codable, Sendable {
    var outputPeakDecibels: [Double]
    var outputRMSDecibels: [Double]
    var inputPeakDecibels: [Double]?
    var inputRMSDecibels: [Double]?
    var detectedPitchHz: Double?
    var pitchConfidence: Double?
    var dominantFrequencyHz: Double?
    var voices: Int
    var xruns: Int
    var dspLoadPercent: Double
    var worstDspLoadPercent: Double
    var missedDeadlines: Int
    /// Events refused because the ring to the render thread was full.
    var midiEventsDropped: Int
    /// Times the kernel discarded the events it queued for us (its queue overflowed).
    var midiInputOverruns: Int
    /// Periods that applied their MIDI budget and left events waiting for the next period.
    var midiDeferredPeriods: Int
    /// Controller, bend and pressure values replaced within their period before being applied.
    var midiEventsCoalesced: Int
    /// Note-ons skipped after waiting 50 ms for the note-on budget (a flood of them).
    var midiNoteOnsSkipped: Int
    /// Blocks silenced because they held NaN or infinity (a unit was reset each time).
    var nonFiniteBlocks: Int
    /// Sampler voices stopped because their output ran away (NaN, infinity, beyond +80 dBFS).
    var runawayVoices: Int
    /// Sampler regions whose band-limited levels the background builder has not published yet
    /// (notes on them play with the 4-point kernel); 0 soon after start.
    var regionsAwaitingLevels: Int
    var playback: String
    var capture: String?
    var realtime: String
    var sampler: String
    /// Channels with sounding voices or a program other than the default.
    var parts: [PartStatus]

    /// The one-line live status: meters, pitch, voices, xruns, DSP load.
    var line: String {
        func db(_ v: Double) -> String { v <= -100 ? "  -∞" : String(format: "%4.0f", v) }
        var s = "out \(db(outputPeakDecibels.max() ?? -160)) dB"
        if let i = inputPeakDecibels { s += "  in \(db(i.max() ?? -160)) dB" }
        if let p = detectedPitchHz, p > 0 { s += String(format: "  pitch %6.1f Hz", p) }
        s += String(format: "  voices %3d", voices)
        let sounding = parts.filter { $0.voices > 0 }
        if !sounding.isEmpty { s += " (" + sounding.map { "ch\($0.channel) \($0.voices)" }.joined(separator: " ") + ")" }
        s += String(format: "  xruns %d  dsp %4.1f%% (max %4.1f%%)", xruns, dspLoadPercent, worstDspLoadPercent)
        if nonFiniteBlocks > 0 { s += "  NaN/inf blocks \(nonFiniteBlocks)" }
        if runawayVoices > 0 { s += "  runaway voices stopped \(runawayVoices)" }
        if regionsAwaitingLevels > 0 { s += "  levels building for \(regionsAwaitingLevels) regions" }
        if midiEventsDropped > 0 || midiInputOverruns > 0 || midiNoteOnsSkipped > 0 {
            s += "  MIDI lost: \(midiEventsDropped) dropped, \(midiNoteOnsSkipped) late note-ons skipped, \(midiInputOverruns) kernel overruns"
        }
        if midiDeferredPeriods > 0 { s += "  MIDI deferred in \(midiDeferredPeriods) periods" }
        return s
    }

    func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? String(data: encoder.encode(self), encoding: .utf8)) ?? "{}"
    }
}

/// One part in `status`: channel (1-based), sounding voices, what it plays.
struct PartStatus: Codable, Sendable {
    var channel: Int
    var voices: Int
    var program: String

    /// All 16 parts.
    static func collect(_ engine: EngineController) -> [PartStatus] {
        (0..<PartMeters.partCount).map { c in
            PartStatus(channel: c + 1, voices: engine.partMeters.voices(channel: c),
                       program: PartReport.name(of: engine.partMeters.program(channel: c), in: engine))
        }
    }
}
