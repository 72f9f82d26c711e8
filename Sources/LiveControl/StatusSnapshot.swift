import DSP
import Engine
import Foundation
import Sampler

/// Everything `audiograph status` reports, as one value (JSON with `--json`).
public struct StatusSnapshot: Codable, Sendable {
    public var outputPeakDecibels: [Double]
    public var outputRMSDecibels: [Double]
    public var inputPeakDecibels: [Double]?
    public var inputRMSDecibels: [Double]?
    public var detectedPitchHz: Double?
    public var pitchConfidence: Double?
    public var dominantFrequencyHz: Double?
    public var voices: Int
    public var xruns: Int
    public var dspLoadPercent: Double
    public var worstDspLoadPercent: Double
    public var missedDeadlines: Int
    /// Events refused because the ring to the render thread was full.
    public var midiEventsDropped: Int
    /// Times the kernel discarded the events it queued for us (its queue overflowed).
    public var midiInputOverruns: Int
    /// Periods that applied their MIDI budget and left events waiting for the next period.
    public var midiDeferredPeriods: Int
    /// Controller, bend and pressure values replaced within their period before being applied.
    public var midiEventsCoalesced: Int
    /// Note-ons skipped after waiting 50 ms for the note-on budget (a flood of them).
    public var midiNoteOnsSkipped: Int
    /// Blocks silenced because they held NaN or infinity (a unit was reset each time).
    public var nonFiniteBlocks: Int
    /// Sampler voices stopped because their output ran away (NaN, infinity, beyond +80 dBFS).
    public var runawayVoices: Int
    /// Sampler regions whose band-limited levels the background builder has not published yet
    /// (notes on them play with the 4-point kernel); 0 soon after start.
    public var regionsAwaitingLevels: Int
    /// Note-ons that found a region's samples not read yet (a SoundFont's, read on need): that
    /// part of the note was silent, and the region is read for the next one.
    public var silentNotes: Int
    public var playback: String
    public var capture: String?
    public var realtime: String
    public var sampler: String
    /// Channels with sounding voices or a program other than the default.
    public var parts: [PartStatus]
    /// Each mixer bus's level after its fader.
    public var buses: [BusStatus]
    /// The master limiter's gain reduction in the last period, dB (0: not limiting).
    public var limiterReductionDecibels: Double
    /// Every parameter's current value, by name (as `audiograph get` reads them).
    public var parameters: [String: Double]
    /// The web panel's address and, when it needs one, its token; nil without `--panel`.
    public var panel: String?
    /// What the playback device goes to (a sound server and how, or `none (…)`).
    public var audioServer: String?
    /// The MIDI sources connected to our sequencer input now ("client:port (14:0)"), however they
    /// were connected; nil without a sequencer.
    public var midiSources: [String]?

    /// The one-line live status: meters, pitch, voices, xruns, DSP load.
    public var line: String {
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
        if silentNotes > 0 { s += "  silent notes \(silentNotes) (samples not read yet)" }
        if midiEventsDropped > 0 || midiInputOverruns > 0 || midiNoteOnsSkipped > 0 {
            s += "  MIDI lost: \(midiEventsDropped) dropped, \(midiNoteOnsSkipped) late note-ons skipped, \(midiInputOverruns) kernel overruns"
        }
        if midiDeferredPeriods > 0 { s += "  MIDI deferred in \(midiDeferredPeriods) periods" }
        return s
    }

    /// `status` as text: the live line, then where playback goes, the MIDI sources and the panel.
    public var text: String {
        var lines = [line]
        if let audioServer { lines.append("audio server: \(audioServer)") }
        if let midiSources { lines.append("MIDI in: " + (midiSources.isEmpty ? "no sources connected" : midiSources.joined(separator: ", "))) }
        if let panel { lines.append("panel: \(panel)") }
        return lines.joined(separator: "\n")
    }

    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? String(data: encoder.encode(self), encoding: .utf8)) ?? "{}"
    }
}

/// One part in `status`: channel (1-based), sounding voices, what it plays, notes received
/// (played or ignored) and its recent peak.
public struct PartStatus: Codable, Sendable {
    public var channel: Int
    public var voices: Int
    public var program: String
    public var notes: Int
    public var levelDecibels: Double

    /// All 16 parts.
    public static func collect(_ engine: EngineController) -> [PartStatus] {
        let meters = engine.partMeters
        return (0..<PartMeters.partCount).map { c in
            let ignored = PartMeters.IgnoredReason.allCases.reduce(0) { $0 + meters.notesIgnored(channel: c, reason: $1) }
            return PartStatus(channel: c + 1, voices: meters.voices(channel: c), program: engine.programName(of: meters.program(channel: c)),
                              notes: meters.notesPlayed(channel: c) + ignored, levelDecibels: Decibels.fromGain(Double(meters.level(channel: c))))
        }
    }
}

/// One mixer bus in `status`: its name and level after the fader, dBFS.
public struct BusStatus: Codable, Sendable {
    public var name: String
    public var peakDecibels: Double
    public var rmsDecibels: Double

    public static func collect(_ engine: EngineController) -> [BusStatus] {
        BusID.allCases.map { bus in
            let level = engine.meters.busDecibels(bus)
            return BusStatus(name: bus.name, peakDecibels: level.peak, rmsDecibels: level.rms)
        }
    }
}

extension EngineController {
    /// What a part plays, by name: the program's, "synth", or "none".
    public func programName(of program: PartProgram) -> String {
        programBank?.name(of: program) ?? (program == .none ? "none" : "synth")
    }
}
