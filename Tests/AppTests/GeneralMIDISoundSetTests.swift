import AudioFiles
import AudioGraphApp
import AudioTestSupport
import DSP
import Engine
import Foundation
import MIDI
import SamplerLevels
import Testing

/// The bundled General MIDI sound set through the default instrument, as a song plays it: the
/// drum map (every key 27–87 a kit piece of its kind), the GS kits (different where their pieces
/// are, identical elsewhere), the piano's decay against FluidR3_GM's, and the percussive programs
/// dying away. Levels against FluidSynth are `scripts/gm-levels` and `scripts/gm-balance` (reports).
@Suite struct GeneralMIDISoundSetTests {
    static let rate = 48000.0
    let rate = GeneralMIDISoundSetTests.rate

    /// Renders `events` (left channel) through the default instrument, loading only the presets
    /// they select; master filters, limiter and reverb/chorus sends off, so each hit is its piece
    /// alone (no tail or gain reduction carried into the next).
    static func render(_ events: [MIDIFileEvent]) throws -> [Float] {
        var loader = try InstrumentLoader(instrumentPath: OfflineRenderTests.defaultInstrument)
        loader.assignments = ["master.lowpass.enabled=off", "master.highpass.enabled=off", "master.limiter.enabled=off", "fx.enabled=off"]
        loader.levels = .byNeed
        loader.programSelection = ProgramSelection(messages: events.map(\.message))
        let engine = try loader.makeEngine(configuration: EngineConfiguration(sampleRate: rate, maxFrames: 256))
        var left: [Float] = []
        _ = try OfflineRenderer(engine: engine, blockFrames: 256).render(midi: events) { b throws(AudioFileError) in
            left.append(contentsOf: UnsafeBufferPointer(start: b.left, count: b.frames))
        }
        return left
    }

    static func event(_ seconds: Double, _ message: MIDIMessage) -> MIDIFileEvent {
        MIDIFileEvent(seconds: seconds, track: 0, message: message)
    }

    // MARK: drums

    static let drumKeys = Array(27...87)
    static let spacing = 1.6

    /// Every drum key struck once on channel 10 with kit `kit`, `spacing` apart, all sound cut
    /// (CC120) before the next; returns each key's hit.
    static func kitHits(_ kit: Int) throws -> [Int: ArraySlice<Float>] {
        var events = [event(0, .programChange(channel: 9, program: UInt8(kit)))]
        for (index, key) in drumKeys.enumerated() {
            let start = 0.1 + spacing * Double(index)
            events += [
                event(start, .noteOn(channel: 9, note: UInt8(key), velocity: 100)),
                event(start + 0.05, .noteOff(channel: 9, note: UInt8(key), velocity: 0)),
                event(start + spacing - 0.02, .controlChange(channel: 9, controller: 120, value: 0)),
            ]
        }
        let out = try render(events)
        var hits: [Int: ArraySlice<Float>] = [:]
        for (index, key) in drumKeys.enumerated() {
            let start = Int((0.1 + spacing * Double(index)) * rate)
            hits[key] = out[start..<min(out.count, start + Int((spacing - 0.03) * rate))]
        }
        return hits
    }

    /// RMS frequency (the spectrum's second moment) of the first 0.1 s: fs/π · asin(rms(Δx) / (2·rms(x))).
    static func brightness(_ x: ArraySlice<Float>) -> Double {
        let head = x.prefix(Int(0.1 * rate))
        let differences = zip(head.dropFirst(), head).map { $0 - $1 }
        return rate / Double.pi * asin(min(1, Measure.rms(differences) / (2 * Measure.rms(head))))
    }

    /// Seconds from the loudest 10 ms window until the level stays 40 dB under it.
    static func ringSeconds(_ x: ArraySlice<Float>) -> Double {
        let window = 480
        let levels = stride(from: x.startIndex, to: x.endIndex - window, by: window).map { Measure.rms(x[$0..<($0 + window)]) }
        let loudest = levels.indices.max { levels[$0] < levels[$1] } ?? 0
        let last = levels.lastIndex { $0 > levels[loudest] / 100 } ?? loudest
        return Double(last - loudest + 1) * Double(window) / rate
    }

    /// What kind of piece each key is, by the General MIDI / GS names: low drums, snare-like
    /// mids, short high noises, ringing cymbals, and pitched hand percussion and effects.
    enum Kind: CaseIterable {
        case lowDrum, snare, shortHigh, cymbal, pitched

        /// Brightness (Hz, first 0.1 s) and ring time (s) the kind allows.
        var brightness: ClosedRange<Double> {
            switch self {
            case .lowDrum: 40...450
            case .snare: 700...7_000
            case .shortHigh: 4_000...20_000
            case .cymbal: 3_000...20_000
            case .pitched: 150...9_000
            }
        }

        var ring: ClosedRange<Double> {
            switch self {
            case .lowDrum: 0.1...1.6
            case .snare: 0.02...0.6
            case .shortHigh: 0.01...0.35
            case .cymbal: 0.6...1.6
            case .pitched: 0.01...1.6
            }
        }
    }

    static let kinds: [Int: Kind] = {
        var kinds: [Int: Kind] = [:]
        for key in [35, 36, 41, 43, 45, 47, 48, 50, 86, 87] { kinds[key] = .lowDrum }
        for key in [28, 37, 38, 39, 40] { kinds[key] = .snare }
        for key in [42, 44, 54, 69, 70, 82] { kinds[key] = .shortHigh }
        for key in [46, 49, 51, 52, 55, 57, 59, 81] { kinds[key] = .cymbal }
        for key in drumKeys where kinds[key] == nil { kinds[key] = .pitched }
        return kinds
    }()

    /// Every key 27–87 of the standard kit sounds (above −45 dBFS, starting within 3 ms of its
    /// note-on), and sounds like its kind: kicks and toms low, snares in the mids, hats and shakers
    /// short and high, cymbals high and ringing; the six toms rise with the key.
    @Test func everyDrumKeySoundsAsItsKitPiece() throws {
        let hits = try Self.kitHits(0)
        var report: [String] = []
        for key in Self.drumKeys {
            let hit = try #require(hits[key])
            let level = Measure.decibels(Measure.rms(hit.prefix(Int(0.3 * rate))))
            let onset = hit.firstIndex { abs($0) > 1e-3 }.map { Double($0 - hit.startIndex) / rate } ?? 1
            let (brightness, ring) = (Self.brightness(hit), Self.ringSeconds(hit))
            let kind = Self.kinds[key]!
            report.append("\(key): \(Int(level)) dBFS, onset \(Int(onset * 1000)) ms, \(Int(brightness)) Hz, rings \(ring) s")
            #expect(level > -45, "key \(key) sounds: \(level) dBFS")
            #expect(onset < 0.003, "key \(key) starts at once: \(onset) s")
            #expect(kind.brightness.contains(brightness), "key \(key) (\(kind)): brightness \(brightness) Hz")
            #expect(kind.ring.contains(ring), "key \(key) (\(kind)): rings \(ring) s")
        }
        print(report.joined(separator: "\n"))
        let toms = [41, 43, 45, 47, 48, 50].map { Self.brightness(hits[$0]!) }
        #expect(toms == toms.sorted(), "the toms rise with the key: \(toms)")
    }

    /// FluidSynth 2.3.1 + FluidR3_GM's standard kit at velocity 100, RMS over the second after the
    /// hit relative to the acoustic snare's (`scripts/gm-levels --drums`, FluidR3 column of kit 0):
    /// the kicks and toms against the snare.
    static let fluidR3KitBalance: [Int: Double] = [35: -0.8, 36: -1.0, 40: -2.5, 41: 4.0, 43: 4.7, 45: 0.8, 47: 0.9, 48: 0.6, 50: -0.9]

    /// The kicks and toms sit against the snare as FluidR3_GM's do, within 3 dB.
    @Test func kitBalanceFollowsFluidR3() throws {
        let hits = try Self.kitHits(0)
        func level(_ key: Int) -> Double { Measure.decibels(Measure.rms(hits[key]!.prefix(Int(1.0 * rate)))) }
        let snare = level(38)
        #expect(snare > -45, "level floor: snare \(snare) dBFS")
        var report: [String] = []
        for (key, reference) in Self.fluidR3KitBalance.sorted(by: { $0.key < $1.key }) {
            let relative = level(key) - snare
            report.append("\(key): \((relative * 10).rounded() / 10) dB (FluidR3_GM \(reference))")
            #expect(abs(relative - reference) <= 3, "key \(key): \(relative) dB against the snare, FluidR3_GM \(reference) dB")
        }
        print("against the snare: " + report.joined(separator: ", "))
    }

    /// The GS kits: the keys whose pieces the kit replaces (GS kit map) sound measurably different
    /// from the standard kit's (band levels or ring time), every other key identical to it.
    static let kitChanges: [(kit: Int, keys: Set<Int>)] = [
        (8, [35, 36, 38, 40, 41, 43, 45, 47, 48, 50]), (16, [35, 36, 38, 40, 41, 43, 45, 47, 48, 50]),
        (24, [35, 36, 38, 40, 41, 43, 45, 47, 48, 50]),
        (25, [35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 56, 57, 62, 63, 64, 70, 75]),
        (32, [35, 36, 38, 40]), (40, [35, 36, 38, 39, 40]), (48, Set([27, 28, 29, 30, 35, 36, 38, 40, 59]).union(41...53)),
    ]

    /// Levels (dB) of the hit in octave bands from 62.5 Hz to 16 kHz over its first 0.3 s.
    static func bandLevels(_ x: ArraySlice<Float>) -> [Double] {
        let head = x.prefix(Int(0.3 * rate))
        return (0..<9).map { band in
            let center = 62.5 * pow(2, Double(band))
            let probes = [0.75, 0.87, 1.0, 1.15, 1.33].map { Measure.amplitude(head, at: center * $0, sampleRate: rate) }
            return Measure.decibels(probes.reduce(0, +) / 5 + 1e-9)
        }
    }

    @Test(arguments: kitChanges)
    func kitDiffersFromStandardWhereItsPiecesDo(kit: Int, changed: Set<Int>) throws {
        let standard = try Self.kitHits(0), other = try Self.kitHits(kit)
        for key in Self.drumKeys {
            let (a, b) = (try #require(standard[key]), try #require(other[key]))
            let identical = zip(a, b).allSatisfy { $0 == $1 }
            if changed.contains(key) {
                let spectral = zip(Self.bandLevels(a), Self.bandLevels(b)).map { abs($0 - $1) }.max() ?? 0
                let rings = (Self.ringSeconds(a), Self.ringSeconds(b))
                let ringRatio = max(rings.0, rings.1) / max(min(rings.0, rings.1), 0.01)
                #expect(spectral > 6 || ringRatio > 1.4, "kit \(kit) key \(key): bands differ by \(spectral) dB, rings \(rings)")
                #expect(Measure.decibels(Measure.rms(b.prefix(Int(0.3 * rate)))) > -45, "kit \(kit) key \(key) sounds")
            } else {
                #expect(identical, "kit \(kit) key \(key) plays the standard kit's piece")
            }
        }
    }

    // MARK: melodic envelopes

    /// One note (key 60, velocity 100) of `program` held `hold` seconds; RMS levels over `window`
    /// seconds from `times` (seconds after the note-on), in dBFS.
    static func heldLevels(program: Int, key: UInt8 = 60, hold: Double = 4.5, times: [Double], window: Double = 0.1) throws -> [Double] {
        let out = try render([
            event(0, .programChange(channel: 0, program: UInt8(program))),
            event(0.1, .noteOn(channel: 0, note: key, velocity: 100)),
            event(0.1 + hold, .noteOff(channel: 0, note: key, velocity: 0)),
        ])
        return times.map { t in
            let start = Int((0.1 + t) * rate)
            return Measure.decibels(Measure.rms(out[start..<min(out.count, start + Int(window * rate))]))
        }
    }

    /// FluidSynth 2.3.1 + FluidR3_GM, program 0, C4 at velocity 100 held: the level 4.0 s after the
    /// note-on relative to its first 100 ms, measured by `fluidSynthPianoDecay()` (which this pins
    /// for machines without FluidSynth): −33.3 dB.
    static let fluidR3PianoDecayAt4s = -33.3

    /// The same measurement through FluidSynth, when it and FluidR3_GM are installed.
    static func fluidSynthPianoDecay() throws -> Double? {
        let font = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
        guard FileManager.default.fileExists(atPath: font), FileManager.default.fileExists(atPath: FluidSynth.executable) else { return nil }
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        let midi = scratch.file("piano.mid"), wav = scratch.file("piano.wav")
        let events: [MIDIFileWriter.TimedEvent] = [
            .init(tick: 0, message: .programChange(channel: 0, program: 0)),
            .init(tick: 96, message: .noteOn(channel: 0, note: 60, velocity: 100)),
            .init(tick: 96 + 4_320, message: .noteOff(channel: 0, note: 60, velocity: 0)),
        ]
        // 120 BPM at 480 ticks per quarter: 960 ticks per second.
        try MIDIFileWriter.write(
            path: midi, tracks: [.init(name: "piano", events: events)], ticksPerQuarter: 480, tempoChanges: [.init(tick: 0, beatsPerMinute: 120)])
        try FluidSynth.render(midi: midi, font: font, to: wav)
        let left = try AudioFileReader.read(path: wav).channels[0]
        func level(_ t: Double) -> Double {
            let start = Int((0.1 + t) * rate)
            return Measure.decibels(Measure.rms(left[start..<start + Int(0.1 * rate)]))
        }
        return level(4.0) - level(0)
    }

    /// The acoustic piano decays as FluidR3_GM's does: 4 s into a held C4, within 6 dB of it.
    @Test func pianoDecaysLikeFluidR3() throws {
        let reference = try Self.fluidSynthPianoDecay() ?? Self.fluidR3PianoDecayAt4s
        let levels = try Self.heldLevels(program: 0, hold: 4.5, times: [0, 4.0])
        let decay = levels[1] - levels[0]
        print("piano at 4 s: \(decay) dB (FluidR3_GM: \(reference) dB)")
        #expect(levels[0] > -40, "level floor: \(levels[0]) dBFS")
        #expect(abs(decay - reference) <= 6, "piano at 4 s: \(decay) dB, FluidR3_GM \(reference) dB")
    }

    /// Struck and plucked programs die away while the key is held: 3 s after the attack at
    /// least 20 dB under it (the electric pianos and clavinet ring longer, as FluidR3_GM's do).
    /// Sustained ones (organ, strings, brass, flute, saw lead, pad) hold: their second and third
    /// seconds within 3 dB of each other (whole seconds: an ensemble's beating averages out).
    static let percussivePrograms = [0, 1, 2, 6, 8, 9, 10, 11, 12, 13, 14, 15, 45, 46, 47, 104, 105, 106, 107, 108, 112, 113, 114, 115, 116, 117]

    @Test func percussiveProgramsDecayAndSustainedOnesHold() throws {
        for program in Self.percussivePrograms {
            let levels = try Self.heldLevels(program: program, hold: 3.5, times: [0, 3.0])
            #expect(levels[0] > -45, "program \(program) sounds: \(levels[0]) dBFS")
            #expect(levels[1] - levels[0] <= -20, "program \(program) after 3 s: \(levels[1] - levels[0]) dB")
        }
        for program in [16, 48, 56, 73, 81, 89] {
            let levels = try Self.heldLevels(program: program, hold: 3.5, times: [1.0, 2.0], window: 1.0)
            #expect(abs(levels[1] - levels[0]) < 3, "program \(program) holds: \(levels[1] - levels[0]) dB")
        }
    }
}
