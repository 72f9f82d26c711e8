import Foundation
import MIDI
import SoundFont

/// The notes that test a font against FluidSynth: for every preset, one note per distinct key and
/// velocity range of its regions (the middle key, the middle velocity, 100 when the range allows
/// it), each alone: held 1 s, measured until 2.5 s, then silenced (CC 120) before the next. Melodic
/// presets play on channel 1 (CC0 = bank, then the program), kits on channel 10. Every event is
/// on a 64-frame boundary at 44.1 kHz (1 tick = 64 frames), where FluidSynth's renderer starts its
/// blocks, so both renders see the same times.
public struct FidelityNotePlan: Sendable {
    public struct Note: Sendable, Equatable {
        public var bank: Int
        public var program: Int
        public var presetName: String
        public var key: Int
        public var velocity: Int
        /// Frames of the note-on and note-off, and of the end of its measuring window.
        public var window: NoteWindow
        /// Source frames per output frame the note plays at (its pitch relative to the sample's
        /// root, times the sample's rate over 44.1 kHz).
        public var step: Double

        /// Where FluidSynth's 4-point interpolation is accurate: below a quarter of the sample's
        /// rate, as the note plays it (at most 20 kHz). Above it FluidSynth's renders carry its
        /// interpolation's roll-off, images and aliases, which our band-limited transposition does
        /// not; the notes are compared below it.
        public var accurateBand: Double { min(20_000, 0.25 * FidelityNotePlan.sampleRate * step) }

        /// The envelope's RMS window: one period of the key's equal-tempered pitch on a melodic
        /// preset (a shorter window follows the waveform, not its envelope: key 17's period is
        /// 36 ms, and 5 ms of it rises and falls with each cycle), 5 ms on a kit.
        public var envelopeSeconds: Double {
            bank == 128 ? NoteAnalysis.envelopeWindowSeconds : 1 / (440 * pow(2, Double(key - 69) / 12))
        }
    }

    public static let sampleRate = 44_100.0
    public static let ticksPerQuarter = 441
    /// 1 tick = 64 frames at 44.1 kHz: a quarter of 441 ticks lasts 0.64 s.
    public static let beatsPerMinute = 93.75
    static let framesPerTick = 64
    static let holdTicks = 689  // 1.0 s
    static let windowTicks = 1723  // 2.5 s
    static let gapTicks = 69  // 0.1 s of silence between notes

    public private(set) var notes: [Note] = []

    /// Every preset's bank:program, in the order the plan plays them (for batching).
    public static func presets(of font: SoundFontFile) -> [[Int]] {
        var seen = Set<[Int]>()
        return font.presets.map { [$0.bank, $0.program] }.sorted { ($0[0], $0[1]) < ($1[0], $1[1]) }.filter { seen.insert($0).inserted }
    }

    /// `presets` limits the test to those bank:program pairs (nil: all of the font's).
    public init(font: SoundFontFile, presets: Set<[Int]>? = nil) {
        let order = font.presets.indices.sorted { (font.presets[$0].bank, font.presets[$0].program) < (font.presets[$1].bank, font.presets[$1].program) }
        var seen = Set<[Int]>()
        var tick = 8
        for index in order {
            let preset = font.presets[index]
            guard (0...128).contains(preset.bank), (0...127).contains(preset.program), seen.insert([preset.bank, preset.program]).inserted else { continue }
            if let presets, !presets.contains([preset.bank, preset.program]) { continue }
            var ranges = Set<[Int]>()
            for region in font.regions(ofPreset: index) {
                let key = (region.keyRange.lowerBound + region.keyRange.upperBound) / 2
                let velocity = region.velocityRange.contains(100) ? 100
                    : max(1, (region.velocityRange.lowerBound + region.velocityRange.upperBound) / 2)
                guard ranges.insert([key, velocity]).inserted else { continue }
                let on = tick * Self.framesPerTick
                let g = region.generators, sample = font.samples[region.sample]
                let root = g[.overridingRootKey] >= 0 ? g[.overridingRootKey] : sample.originalPitch
                let cents = Double(g[.scaleTuning]) * Double(key - root) + Double(100 * g[.coarseTune] + g[.fineTune] + sample.pitchCorrection)
                let step = pow(2, cents / 1200) * Double(sample.sampleRate) / Self.sampleRate
                notes.append(Note(
                    bank: preset.bank, program: preset.program, presetName: preset.name, key: key, velocity: velocity,
                    window: NoteWindow(onset: on, release: on + Self.holdTicks * Self.framesPerTick, end: on + Self.windowTicks * Self.framesPerTick),
                    step: step))
                tick += Self.windowTicks + Self.gapTicks
            }
        }
    }

    /// The plan as a MIDI track.
    public var track: MIDIFileWriter.Track {
        var events: [MIDIFileWriter.TimedEvent] = []
        for note in notes {
            let on = note.window.onset / Self.framesPerTick
            let channel: UInt8 = note.bank == 128 ? 9 : 0
            func add(_ tick: Int, _ message: MIDIMessage) { events.append(MIDIFileWriter.TimedEvent(tick: tick, message: message)) }
            add(on - 4, .controlChange(channel: channel, controller: 0, value: UInt8(note.bank == 128 ? 0 : note.bank)))
            add(on - 4, .controlChange(channel: channel, controller: 7, value: 100))
            add(on - 4, .controlChange(channel: channel, controller: 11, value: 127))
            add(on - 4, .controlChange(channel: channel, controller: 10, value: 64))
            add(on - 3, .programChange(channel: channel, program: UInt8(note.program)))
            add(on, .noteOn(channel: channel, note: UInt8(note.key), velocity: UInt8(note.velocity)))
            add(note.window.release / Self.framesPerTick, .noteOff(channel: channel, note: UInt8(note.key), velocity: 0))
            add(note.window.end / Self.framesPerTick, .controlChange(channel: channel, controller: 120, value: 0))
        }
        return MIDIFileWriter.Track(name: "notes", events: events)
    }
}
