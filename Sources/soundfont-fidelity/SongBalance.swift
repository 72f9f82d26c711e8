import Foundation
import MIDI
import SoundFontFidelity

/// Per-channel balance of a real song: each channel's notes rendered alone (every other event
/// kept), its RMS relative to the whole mix's, by FluidSynth and by AudioGraph with the same
/// font. Events are moved to 64-frame boundaries at 44.1 kHz (where FluidSynth plays them
/// anyway), identically for both. Control thread. Only this tool's `songs` command uses it.
struct SongBalance {
    var song: String
    var font: String
    var renders: FidelityRenders

    /// Channels with notes, and (FluidSynth, AudioGraph) dB relative to the mix.
    func balance() throws -> [(channel: Int, reference: Double, ours: Double)] {
        let events = try MIDIFile.read(path: song).events
        let channels = Set(events.compactMap { event -> Int? in
            if case .noteOn = event.message.normalized { return Int(event.message.channel & 15) }
            return nil
        }).sorted()
        func level(_ render: FidelityRenders.Render) -> Double {
            var sum = 0.0
            for i in 0..<render.left.count { sum += Double(render.left[i] * render.left[i] + render.right[i] * render.right[i]) }
            return 10 * log10(max(sum / Double(max(1, 2 * render.left.count)), 1e-20))
        }
        func renderBoth(keeping channel: Int?, name: String) throws -> (Double, Double) {
            let midi = "\(renders.directory)/\(name).mid"
            try write(events, keeping: channel, to: midi)
            return (level(try renders.fluidSynth(font: font, midi: midi, name: name)), level(try renders.ours(font: font, midi: midi, name: name)))
        }
        let mix = try renderBoth(keeping: nil, name: "mix")
        return try channels.map { channel in
            let solo = try renderBoth(keeping: channel, name: "ch\(channel)")
            return (channel, solo.0 - mix.0, solo.1 - mix.1)
        }
    }

    func lines() throws -> [String] {
        let rows = try balance()
        var lines = ["== \((song as NSString).lastPathComponent) with \((font as NSString).lastPathComponent): channel alone relative to the mix (FluidSynth, AudioGraph, difference)"]
        var within = 0
        for row in rows {
            let difference = row.ours - row.reference
            if abs(difference) <= 1.5 { within += 1 }
            lines.append(String(format: "  channel %2d  %7.2f dB  %7.2f dB  %+6.2f dB%@", row.channel + 1, row.reference, row.ours, difference,
                                abs(difference) <= 1.5 ? "" : "  (over 1.5 dB)"))
        }
        lines.append("  channels within 1.5 dB: \(within) of \(rows.count)")
        return lines
    }

    /// The song with only `channel`'s notes (all of them when nil), at 1 tick = 64 frames.
    private func write(_ events: MIDIEventList, keeping channel: Int?, to path: String) throws {
        var timed: [MIDIFileWriter.TimedEvent] = []
        for event in events {
            switch event.message.normalized {
            case .noteOn, .noteOff:
                if let channel, Int(event.message.channel & 15) != channel { continue }
            default: break
            }
            timed.append(MIDIFileWriter.TimedEvent(tick: Int((event.seconds * 44_100 / 64).rounded()), message: event.message))
        }
        try MIDIFileWriter.write(
            path: path, tracks: [MIDIFileWriter.Track(name: "song", events: timed)], ticksPerQuarter: FidelityNotePlan.ticksPerQuarter,
            tempoChanges: [.init(tick: 0, beatsPerMinute: FidelityNotePlan.beatsPerMinute)])
    }
}
